import { createHash, randomBytes } from "node:crypto";
import { ToolwareTypeError } from "@toolware/core";
import type { Cluster, Redis } from "ioredis";
import { Deadlines } from "./deadline.js";

/** A client the application already has: a single server (`new Redis()`) or a cluster (`new Cluster()`). */
export type RedisClient = Redis | Cluster;

/**
 * What a store does when Redis does not answer within `timeoutMs` (down, unreachable, slow):
 * `"fail-closed"` makes a guard block the call with a reason naming the store; `"fail-open"`
 * lets the call through (a cache is skipped).
 */
export type FailurePolicy = "fail-closed" | "fail-open";

/** Which store fell back. */
export type RedisStoreKind = "rate-limit" | "cache" | "circuit-breaker" | "approval" | "loop-guard" | "analytics";

/** Told about every operation that did not get its answer from Redis. */
export interface RedisFallbackEvent {
  readonly store: RedisStoreKind;
  /** The store method, e.g. `hit`, `get`, `admit`. */
  readonly operation: string;
  readonly policy: FailurePolicy;
  /** What the call got instead: let through (or the cache skipped), or refused with an error. */
  readonly action: "allowed" | "refused";
  /** The Redis error, or a `TOOLWARE_REDIS_UNAVAILABLE` error saying it did not answer in time. */
  readonly error: unknown;
}

/** Options every Redis store takes. */
export interface RedisStoreOptions {
  /** The connection to use; the store never closes it and adds no listeners to it. */
  client: RedisClient;
  /** Put before every key, so applications sharing a server do not share state. Default `"toolware:"`. No braces. */
  prefix?: string;
  /** How long one decision may wait for Redis before the failure policy applies. Default 500 ms. */
  timeoutMs?: number;
  /**
   * Default: `"fail-closed"` for the rate limit and the circuit breaker, `"fail-open"` for the
   * others. The analytics store only fails open.
   */
  failure?: FailurePolicy;
  /** Called for every fallback; a throw here is ignored (it must not change the call). */
  onFallback?: (event: RedisFallbackEvent) => void;
}

/** The checked options, with what every store needs to talk to Redis. @internal */
export interface Connection {
  readonly client: RedisClient;
  readonly prefix: string;
  readonly timeoutMs: number;
  readonly policy: FailurePolicy;
  readonly store: RedisStoreKind;
  readonly onFallback: ((event: RedisFallbackEvent) => void) | undefined;
  /** Unique per process: makes members and trial tokens that no other process can produce. */
  readonly token: string;
  /** A coded option error with the package's prefix. */
  invalid(message: string): ToolwareTypeError;
  /** The store's operations waiting for Redis, under one timer. */
  readonly deadlines: Deadlines;
}

const KEYS = ["client", "prefix", "timeoutMs", "failure", "onFallback"];

const invalid = (message: string): ToolwareTypeError =>
  new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `toolware/redis: ${message}`);

/** Checks the options shared by every store. @internal */
export function connect(
  options: RedisStoreOptions,
  store: RedisStoreKind,
  extra: readonly string[],
  defaultPolicy: FailurePolicy,
): Connection {
  if (options === null || typeof options !== "object") {
    throw invalid(`the ${store} store takes an options object { client, prefix?, timeoutMs?, failure? }`);
  }
  for (const key of Object.keys(options)) {
    if (!KEYS.includes(key) && !extra.includes(key)) {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `toolware/redis: unknown option \`${key}\` (known: ${[...KEYS, ...extra].join(", ")})`,
      );
    }
  }
  const { client, prefix = "toolware:", timeoutMs = 500, failure = defaultPolicy, onFallback } = options;
  const c = client as { evalsha?: unknown; eval?: unknown } | null | undefined;
  if (c === null || typeof c !== "object" || typeof c.evalsha !== "function" || typeof c.eval !== "function") {
    throw invalid("`client` must be an ioredis client (new Redis(...) or new Cluster(...))");
  }
  // Braces would become the key's hash tag in a cluster and split a store's keys over slots.
  if (typeof prefix !== "string" || /[{}]/.test(prefix)) {
    throw invalid(`\`prefix\` must be a string without braces, got ${JSON.stringify(prefix) ?? typeof prefix}`);
  }
  // 2147483647 is the longest delay setTimeout honours; a longer one fires after 1 ms.
  if (typeof timeoutMs !== "number" || !(timeoutMs > 0 && timeoutMs <= 2_147_483_647)) {
    throw invalid(
      `\`timeoutMs\` must be a positive number of milliseconds, at most 2147483647, got ${String(timeoutMs)}`,
    );
  }
  if (failure !== "fail-closed" && failure !== "fail-open") {
    throw invalid(`\`failure\` must be "fail-closed" or "fail-open", got ${JSON.stringify(failure) ?? typeof failure}`);
  }
  if (onFallback !== undefined && typeof onFallback !== "function") {
    throw invalid("`onFallback` must be a function");
  }
  return {
    client,
    prefix,
    timeoutMs,
    policy: failure,
    store,
    onFallback,
    token: randomBytes(8).toString("hex"),
    invalid,
    deadlines: new Deadlines(timeoutMs),
  };
}

/** A Lua script run by its SHA; loaded with `EVAL` the first time a server does not know it. @internal */
export class Script {
  readonly sha: string;
  readonly source: string;
  constructor(source: string) {
    this.source = source;
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  run(client: RedisClient, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return client.evalsha(this.sha, keys.length, ...keys, ...args).catch((error: unknown) => {
      // After a restart or a failover the server has forgotten the script: one EVAL loads it again.
      if (error instanceof Error && error.message.startsWith("NOSCRIPT")) {
        return client.eval(this.source, keys.length, ...keys, ...args);
      }
      throw error;
    });
  }
}

/** Escapes glob characters for SCAN MATCH. @internal */
export function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, "\\$&");
}

function masters(client: RedisClient): Redis[] {
  const nodes: Redis[] = "nodes" in client && typeof client.nodes === "function" ? client.nodes("master") : [];
  return nodes.length > 0 ? nodes : [client as Redis];
}

/** Every key matching `pattern`, on every master (one, unless it is a cluster). @internal */
export async function scanKeys(client: RedisClient, pattern: string): Promise<string[]> {
  const found: string[] = [];
  for (const node of masters(client)) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", 500);
      cursor = next;
      found.push(...keys);
    } while (cursor !== "0");
  }
  return found;
}

/**
 * Deletes every key matching `pattern` on every master, key by key, since keys on one node may
 * sit in different slots. Returns how many went.
 * @internal
 */
export async function deleteMatching(client: RedisClient, pattern: string): Promise<number> {
  let deleted = 0;
  for (const node of masters(client)) {
    let cursor = "0";
    do {
      const [next, keys] = await node.scan(cursor, "MATCH", pattern, "COUNT", 500);
      cursor = next;
      const counts = await Promise.all(keys.map((k) => node.unlink(k)));
      for (const n of counts) deleted += n;
    } while (cursor !== "0");
  }
  return deleted;
}
