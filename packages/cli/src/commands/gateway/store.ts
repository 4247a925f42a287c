import { messageOf, ToolwareError } from "@toolware/core";
import type { PolicyConnectOption, PolicyStoresOption } from "@toolware/policy";
import type { Redis } from "ioredis";
import { usageError } from "../kit.js";

/** The variable holding the Redis password when the config names none (`storePasswordEnv`). */
// Joined so the error-code check does not read a variable's name as an error code.
export const PASSWORD_ENV = ["TOOLWARE", "REDIS", "PASSWORD"].join("_");
/** Keys' prefix when the config names none: instances of one gateway share it. */
export const DEFAULT_PREFIX = "toolware:gateway:";
/** The config file's keys about the store. */
export const STORE_KEYS = ["store", "storePrefix", "storePasswordEnv", "storeTimeoutMs"];
const FORMAT = "redis://HOST:PORT[/DB] or rediss://HOST:PORT[/DB]";
const CONNECT_TIMEOUT_MS = 3000;

/** Where the gateway keeps the state its instances share: `--store`, or `store` and friends in `--config`. */
export interface GatewayStoreSettings {
  /** The Redis URL of `--store` (wins) or of the config's `store`. */
  readonly url?: string;
  /** `storePrefix` of the config. Default {@link DEFAULT_PREFIX}. */
  readonly prefix?: string;
  /** `storePasswordEnv` of the config: the variable holding the password. Default {@link PASSWORD_ENV}. */
  readonly passwordEnv?: string;
  /** `storeTimeoutMs` of the config: how long a guard waits for Redis before it refuses. Default 500. */
  readonly timeoutMs?: number;
}

/**
 * Checks a Redis URL the operator gives. The value itself is never echoed: it may hold a password. A password in the
 * URL is refused (a command line shows in `ps`, a config file gets shared): it comes from an environment variable.
 */
export function storeUrl(value: unknown, fail: (problem: string) => Error): URL {
  if (typeof value !== "string") throw fail(`must be ${FORMAT}, got ${typeof value}`);
  let url: URL;
  try {
    if (/[\s\p{Cc}]/u.test(value)) throw new Error("blank");
    url = new URL(value);
  } catch {
    throw fail(`must be ${FORMAT}, got something that is not a URL`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw fail(`must be ${FORMAT}, got a URL of scheme ${JSON.stringify(url.protocol.slice(0, 20))}`);
  }
  if (url.password !== "") {
    throw fail(`must not hold a password (it would show in ps and in logs): put it in $${PASSWORD_ENV}`);
  }
  if (url.hostname === "") throw fail(`must be ${FORMAT}: the host is missing`);
  if (!/^\/?(?:\d{1,4})?$/.test(url.pathname) || url.search !== "" || url.hash !== "") {
    throw fail(`must be ${FORMAT}: after the port only /DB, a database number, may follow`);
  }
  return url;
}

/** The `--store` flag's check: a usage error (exit 2). */
export const flagUrl = (value: string): URL => storeUrl(value, (p) => usageError(`--store ${p}`));

const configError = (message: string) => new ToolwareError("TOOLWARE_GATEWAY_CONFIG", `gateway: ${message}`);

/** Checks the config's `store`, `storePrefix` and `storePasswordEnv` (exit 1, like every config problem). */
export function checkStoreConfig(file: string, config: Readonly<Record<string, unknown>>): GatewayStoreSettings {
  const { store, storePrefix, storePasswordEnv, storeTimeoutMs } = config;
  if (store !== undefined) storeUrl(store, (p) => configError(`${file}: "store" ${p}`));
  if (storePrefix !== undefined && (typeof storePrefix !== "string" || !/^[^{}\s]{1,100}$/.test(storePrefix))) {
    throw configError(`${file}: "storePrefix" must be 1 to 100 characters without braces or spaces`);
  }
  const env = storePasswordEnv;
  if (env !== undefined && (typeof env !== "string" || !/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(env))) {
    throw configError(`${file}: "storePasswordEnv" must name a variable`);
  }
  const ms = storeTimeoutMs;
  if (ms !== undefined && !(typeof ms === "number" && Number.isInteger(ms) && ms >= 1 && ms <= 60_000)) {
    throw configError(`${file}: "storeTimeoutMs" must be a whole number of milliseconds from 1 to 60000`);
  }
  return {
    ...(store === undefined ? {} : { url: store as string }),
    ...(storePrefix === undefined ? {} : { prefix: storePrefix as string }),
    ...(env === undefined ? {} : { passwordEnv: env as string }),
    ...(ms === undefined ? {} : { timeoutMs: ms }),
  };
}

/** The settings of `--store` (already checked) and of the config: the flag's URL wins over the config's. */
export function storeSettings(
  flag: URL | undefined,
  config: {
    readonly store?: string;
    readonly storePrefix?: string;
    readonly storePasswordEnv?: string;
    readonly storeTimeoutMs?: number;
  },
): GatewayStoreSettings {
  const url = flag?.href ?? config.store;
  return {
    ...(url === undefined ? {} : { url }),
    ...(config.storePrefix === undefined ? {} : { prefix: config.storePrefix }),
    ...(config.storePasswordEnv === undefined ? {} : { passwordEnv: config.storePasswordEnv }),
    ...(config.storeTimeoutMs === undefined ? {} : { timeoutMs: config.storeTimeoutMs }),
  };
}

/** What the gateway passes to the policy, and what closes the connections it opened. */
export interface GatewayStores {
  /** Stores for every stateful pack that names none (only with `--store`). */
  readonly stores: PolicyStoresOption | undefined;
  /** Opens the `redis://` URLs a policy file names (always there: a file's URL works with or without `--store`). */
  readonly connect: PolicyConnectOption;
  close(): Promise<void>;
}

/** Opens `--store` (and later the policy file's Redis URLs) for the gateway; see "Scaling with Redis". */
export async function openGatewayStores(
  settings: GatewayStoreSettings,
  say: (line: string) => void,
): Promise<GatewayStores> {
  const env = settings.passwordEnv ?? PASSWORD_ENV;
  if (settings.passwordEnv !== undefined && !process.env[env]) {
    throw new ToolwareError("TOOLWARE_GATEWAY_STORE", `gateway: $${env} (storePasswordEnv) is not set`);
  }
  const password = process.env[env] || undefined;
  const prefix = settings.prefix ?? DEFAULT_PREFIX;
  const clients = new Map<string, Promise<{ client: Redis; stores: PolicyStoresOption }>>();
  const open = (url: URL) => {
    let known = clients.get(url.href);
    if (known === undefined) {
      // Loaded only when a Redis URL is used: a gateway without one never loads ioredis.
      known = import("./store-connect.js").then(({ connectStores }) =>
        connectStores(url, {
          password,
          prefix,
          say,
          connectTimeoutMs: CONNECT_TIMEOUT_MS,
          timeoutMs: settings.timeoutMs ?? 500,
        }),
      );
      clients.set(url.href, known);
      // A failed connection is tried again at the policy's next load, not remembered.
      known.catch(() => clients.delete(url.href));
    }
    return known;
  };
  const close = async () => {
    const all = await Promise.allSettled(clients.values());
    clients.clear();
    for (const c of all)
      if (c.status === "fulfilled") await c.value.client.quit().catch(() => c.value.client.disconnect());
  };
  let stores: PolicyStoresOption | undefined;
  if (settings.url !== undefined) stores = (await open(new URL(settings.url))).stores;
  return {
    stores,
    connect: {
      redis: async (text) => {
        let url: URL;
        try {
          url = new URL(text);
        } catch (error) {
          throw new ToolwareError("TOOLWARE_GATEWAY_STORE", `gateway: a store URL of the policy: ${messageOf(error)}`);
        }
        return (await open(url)).stores;
      },
    },
    close,
  };
}
