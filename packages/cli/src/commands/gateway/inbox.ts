import { type HumanInputProvider, ToolwareError } from "@toolware/core";
import { gatewayApprovals, gatewayElicitation } from "@toolware/gateway";
import { createInbox, signerFromEnv } from "@toolware/inbox";
import { BASE_URL, ENV_NAME, parseStore, STORE_FORMAT } from "../inbox/config.js";
import { KEYS_ENV, openStore } from "../inbox/open.js";
import { usageError } from "../kit.js";

/** The flags that turn on approvals through the inbox (spread into the command's options). */
export const INBOX_FLAGS = {
  inbox: {
    type: "string",
    value: "URL",
    description: "the inbox's public address: approvals go there when the client cannot elicit",
  },
  "inbox-store": {
    type: "string",
    value: "SPEC",
    description: `the inbox's store, shared with \`toolware inbox\`: ${STORE_FORMAT} (default sqlite:toolware-inbox.db)`,
  },
  "inbox-wait": {
    type: "string",
    value: "MS",
    description: "how long a call waits for a decision before it answers 'awaits approval' (default 45000)",
  },
} as const;

export interface InboxFlags {
  readonly inbox?: string | undefined;
  readonly "inbox-store"?: string | undefined;
  readonly "inbox-wait"?: string | undefined;
}

/** Where approvals go, and what to close when the gateway stops. */
export interface GatewayHumanInput {
  readonly humanInput: HumanInputProvider;
  close(): Promise<void>;
}

const failed = (message: string, cause?: unknown) =>
  new ToolwareError("TOOLWARE_GATEWAY_INBOX", `gateway: ${message}`, cause === undefined ? undefined : { cause });

/**
 * Elicitation only, or with `--inbox` the inbox as well: it opens the inbox's store with its signing keys (from
 * `$TOOLWARE_INBOX_KEYS`, or the variable the config's `inboxKeysEnv` names), as `toolware inbox` serves it.
 */
export async function gatewayHumanInput(
  flags: InboxFlags,
  keysEnv: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<GatewayHumanInput> {
  const url = flags.inbox;
  if (url === undefined) {
    if (flags["inbox-store"] !== undefined || flags["inbox-wait"] !== undefined)
      throw usageError("--inbox-store and --inbox-wait go with --inbox URL");
    return { humanInput: gatewayElicitation(), close: async () => {} };
  }
  if (!BASE_URL.test(url)) throw usageError(`--inbox takes the inbox's http(s) URL, got ${JSON.stringify(url)}`);
  const wait = flags["inbox-wait"];
  const waitMs = wait === undefined ? undefined : Number(wait);
  if (wait !== undefined && !(/^\d{1,10}$/.test(wait) && Number(waitMs) <= 2_147_483_647))
    throw usageError(`--inbox-wait takes milliseconds (a whole number), got ${JSON.stringify(wait)}`);
  const spec = flags["inbox-store"] ?? "sqlite:toolware-inbox.db";
  const store = parseStore(spec, cwd);
  if (store === undefined) throw usageError(`--inbox-store takes ${STORE_FORMAT}, got ${JSON.stringify(spec)}`);
  const name = keysEnv ?? KEYS_ENV;
  if (!ENV_NAME.test(name)) throw failed(`"inboxKeysEnv" must name an environment variable`);
  let signer: ReturnType<typeof signerFromEnv>;
  try {
    signer = signerFromEnv(env, name);
  } catch (error) {
    throw failed(`no inbox signing keys in $${name} (the same keys \`toolware inbox\` signs with)`, error);
  }
  let opened: Awaited<ReturnType<typeof openStore>>;
  try {
    opened = await openStore({ store, redisPrefix: undefined } as Parameters<typeof openStore>[0]);
  } catch (error) {
    throw failed(`cannot open the inbox's store ${spec.startsWith("sqlite:") ? spec : "(redis)"}`, error);
  }
  const inbox = createInbox({ store: opened, signer, baseUrl: url });
  return {
    humanInput: gatewayApprovals({ inbox, ...(waitMs === undefined ? {} : { waitMs }) }),
    close: () => inbox.close(),
  };
}
