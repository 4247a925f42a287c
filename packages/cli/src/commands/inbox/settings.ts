/** One webhook of the inbox: its secret is read from the environment, never from a file or the command line. */
export interface WebhookSettings {
  readonly url: string;
  /** The environment variable holding the HMAC secret. Default `TOOLWARE_INBOX_WEBHOOK_SECRET`. */
  readonly secretEnv: string | undefined;
  readonly preset: "json" | "slack";
  readonly timeoutMs: number | undefined;
}

/** Everything `toolware inbox` starts from: the config file's keys, then the flags over them, then the defaults. */
export interface InboxSettings {
  readonly host: string;
  readonly port: number;
  readonly baseUrl: string | undefined;
  readonly store: { readonly kind: "sqlite"; readonly file: string } | { readonly kind: "redis"; readonly url: string };
  readonly redisPrefix: string | undefined;
  /** The key file; without one the keys come from the environment (`TOOLWARE_INBOX_KEYS`). */
  readonly keysFile: string | undefined;
  readonly audit: string | undefined;
  readonly webhooks: readonly WebhookSettings[];
  readonly bodyLimit: number | undefined;
  readonly sessionTtlMs: number | undefined;
  readonly secureCookie: boolean;
}
