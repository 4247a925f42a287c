import { ToolwareTypeError } from "@toolware/core";
import type { ApprovalStore } from "@toolware/packs/approval";
import { guarded } from "./deadline.js";
import { connect, deleteMatching, globEscape, type RedisStoreOptions, scanKeys } from "./shared.js";

/** Options of {@link redisApprovalStore}. */
export interface RedisApprovalStoreOptions extends RedisStoreOptions {
  /** How long a remembered decision lasts. Default 24 hours. */
  ttlMs?: number;
}

/** An approval store in Redis: every method answers with a promise. */
export interface RedisApprovalStore extends ApprovalStore {
  get(key: string): Promise<boolean | undefined>;
  set(key: string, approved: boolean): Promise<void>;
  clear(): Promise<void>;
  count(): Promise<number>;
}

/**
 * Remembered approval decisions in Redis: an "always" (or "never") a human gave to one process
 * holds in every process sharing the server, for `ttlMs`. One string per decision,
 * `<prefix>ap:<key>`, holding `1` or `0`.
 *
 * When Redis does not answer within `timeoutMs`, the default `"fail-open"` treats the decision
 * as not remembered, so the human is asked again; `"fail-closed"` blocks the call. A decision that
 * cannot be written is lost either way, but the call goes on as the human said.
 *
 * @example
 * ```ts
 * const store = redisApprovalStore({ client: new Redis(process.env.REDIS_URL) });
 * hooks.use(approval({ tools: ["send_email"], remember: "tool", store }));
 * ```
 */
export function redisApprovalStore(options: RedisApprovalStoreOptions): RedisApprovalStore {
  const c = connect(options, "approval", ["ttlMs"], "fail-open");
  const ttlMs = options.ttlMs ?? 86_400_000;
  if (typeof ttlMs !== "number" || !Number.isInteger(ttlMs) || ttlMs < 1) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `toolware/redis: \`ttlMs\` must be a positive whole number of milliseconds, got ${String(ttlMs)}`,
    );
  }
  const base = `${c.prefix}ap:`;
  return {
    get(key) {
      return guarded(
        c,
        "get",
        async () => {
          const v = await c.client.get(base + key);
          return v === null ? undefined : v === "1";
        },
        () => undefined,
      );
    },
    set(key, approved) {
      return guarded(c, "set", async () => {
        await c.client.set(base + key, approved ? "1" : "0", "PX", ttlMs);
      });
    },
    clear() {
      return guarded(c, "clear", async () => {
        await deleteMatching(c.client, `${globEscape(base)}*`);
      });
    },
    count() {
      return guarded(c, "count", async () => (await scanKeys(c.client, `${globEscape(base)}*`)).length);
    },
  };
}
