import { messageOf, ToolwareError } from "@toolware/core";
import type { PolicyStoresOption } from "@toolware/policy";
import {
  type RedisFallbackEvent,
  redisCacheStore,
  redisCircuitStore,
  redisLoopGuardStore,
  redisRateLimitStore,
} from "@toolware/redis";
import { Redis } from "ioredis";

/** A Redis URL with its password masked: the only way a URL reaches a message. */
export function shownUrl(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password !== "") copy.password = "***";
  return copy.href.replace(/\/$/, "");
}

/** How one Redis URL is opened. @internal */
export interface ConnectSettings {
  readonly password: string | undefined;
  readonly prefix: string;
  readonly connectTimeoutMs: number;
  /** How long one guard's decision waits for Redis. */
  readonly timeoutMs: number;
  readonly say: (line: string) => void;
}

/**
 * One connection and the stores on it. The guards (rate limit, loop guard, circuit breaker) fail closed: a call
 * they cannot check against Redis is refused, never let through uncounted. The cache fails open (a cache skipped
 * only costs a call). An outage is said once on stderr, and again when Redis is back. @internal
 */
export async function connectStores(
  url: URL,
  settings: ConnectSettings,
): Promise<{ client: Redis; stores: PolicyStoresOption }> {
  const shown = shownUrl(url);
  const client = new Redis(url.href, {
    lazyConnect: true,
    // A command never waits in a queue for a connection that is down: it fails at once, and the guard refuses.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: settings.connectTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    ...(url.password === "" && settings.password !== undefined ? { password: settings.password } : {}),
  });
  let down = false;
  const outage = (why: string) => {
    if (down) return;
    down = true;
    settings.say(
      `toolware gateway: Redis at ${shown} is unavailable (${why}): rate limits, loop guards and circuits refuse calls until it is back\n`,
    );
  };
  client.on("error", (error: unknown) => outage(messageOf(error)));
  client.on("ready", () => {
    if (!down) return;
    down = false;
    settings.say(`toolware gateway: Redis at ${shown} is back\n`);
  });
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new ToolwareError(
      "TOOLWARE_GATEWAY_STORE",
      `gateway: cannot connect to Redis at ${shown}: ${messageOf(error)}`,
    );
  }
  const onFallback = (event: RedisFallbackEvent) =>
    outage(`${event.store} ${event.operation}: ${messageOf(event.error)}`);
  const base = { client, prefix: settings.prefix, timeoutMs: settings.timeoutMs, onFallback };
  const stores: PolicyStoresOption = {
    rateLimit: redisRateLimitStore({ ...base, failure: "fail-closed" }),
    loopGuard: redisLoopGuardStore({ ...base, failure: "fail-closed" }),
    circuitBreaker: redisCircuitStore({ ...base, failure: "fail-closed" }),
    cache: redisCacheStore({ ...base, failure: "fail-open" }),
  };
  return { client, stores };
}
