import { relative, resolve } from "node:path";
import { closestKey } from "@toolware/core";
import { type StringOption, usageError, wholeNumber } from "../kit.js";
import { BASE_URL, type ConfigSettings, parseStore, readConfig, STORE_FORMAT } from "./config.js";
import type { InboxSettings } from "./settings.js";

/** The options every `toolware inbox` command takes: where the config file and the store are. */
export const STORE_OPTIONS = {
  config: {
    type: "string",
    value: "FILE",
    description: "a config file (YAML or JSON, keys in docs/inbox.md); flags win over it",
  },
  store: {
    type: "string",
    value: "SPEC",
    description: "sqlite:PATH (default sqlite:toolware-inbox.db) or redis://HOST:PORT[/DB]",
  },
} as const satisfies Record<string, StringOption>;

/** The flags of `toolware inbox` (serve), as parsed: undefined when not given. */
export interface InboxFlags {
  readonly config?: string | undefined;
  readonly store?: string | undefined;
  readonly host?: string | undefined;
  readonly port?: string | undefined;
  readonly "base-url"?: string | undefined;
  readonly keys?: string | undefined;
  readonly audit?: string | undefined;
  readonly webhook?: string | undefined;
  readonly "webhook-preset"?: string | undefined;
  readonly "secure-cookie"?: boolean;
}

const DEFAULT_FILE = "toolware-inbox.db";

function shown(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === "" || rel.startsWith("..") ? file : rel;
}

/** The config file, then the flags over it, then the defaults; relative flag paths are read from `cwd`. */
export function settingsFrom(flags: InboxFlags, cwd: string): InboxSettings {
  const file = flags.config === undefined ? undefined : resolve(cwd, flags.config);
  const config: ConfigSettings = file === undefined ? {} : readConfig(file, shown(file, cwd));
  const store =
    flags.store === undefined
      ? (config.store ?? { kind: "sqlite" as const, file: resolve(cwd, DEFAULT_FILE) })
      : parseStore(flags.store, cwd);
  if (store === undefined) {
    throw usageError(`--store takes ${STORE_FORMAT}, got ${JSON.stringify(flags.store)}`);
  }
  const host = flags.host ?? config.host ?? "127.0.0.1";
  if (!/^[^\s/]{1,253}$/.test(host))
    throw usageError(`--host takes a host name or address, got ${JSON.stringify(host)}`);
  const port = flags.port === undefined ? (config.port ?? 7717) : wholeNumber("port", flags.port);
  if (port > 65_535) throw usageError(`--port takes a port from 0 to 65535, got ${port}`);
  const baseUrl = flags["base-url"] ?? config.baseUrl;
  if (flags["base-url"] !== undefined && !BASE_URL.test(flags["base-url"])) {
    throw usageError(`--base-url takes an http(s) URL without query or fragment, got ${JSON.stringify(baseUrl)}`);
  }
  const webhooks = [...(config.webhooks ?? [])];
  const preset = flags["webhook-preset"];
  if (preset !== undefined && flags.webhook === undefined) throw usageError("--webhook-preset needs --webhook URL");
  if (preset !== undefined && preset !== "json" && preset !== "slack") {
    const close = closestKey(preset, ["json", "slack"]);
    throw usageError(
      `--webhook-preset takes json or slack, got ${JSON.stringify(preset)}${close === undefined ? "" : ` (did you mean ${close}?)`}`,
    );
  }
  if (flags.webhook !== undefined) {
    if (!/^https?:\/\/[^\s]+$/.test(flags.webhook)) {
      throw usageError(`--webhook takes an http(s) URL, got ${JSON.stringify(flags.webhook)}`);
    }
    webhooks.push({ url: flags.webhook, secretEnv: undefined, preset: preset ?? "json", timeoutMs: undefined });
  }
  return {
    host,
    port,
    baseUrl,
    store,
    redisPrefix: config.redisPrefix,
    keysFile: flags.keys === undefined ? config.keysFile : resolve(cwd, flags.keys),
    audit: flags.audit === undefined ? config.audit : resolve(cwd, flags.audit),
    webhooks,
    bodyLimit: config.bodyLimit,
    sessionTtlMs: config.sessionTtlMs,
    secureCookie: flags["secure-cookie"] === true || config.secureCookie === true,
  };
}
