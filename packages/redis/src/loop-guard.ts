import type { LoopCounts, LoopGuardStore, LoopHistoryEntry, LoopRule, LoopScopeRef } from "@toolware/packs/loop-guard";
import { guarded, guardedScript } from "./deadline.js";
import { connect, deleteMatching, globEscape, type RedisStoreOptions, Script } from "./shared.js";

// One scope, three keys sharing its hash tag (so one script may touch them all on a cluster):
// KEYS[1] a hash with the last call key and the streak, KEYS[2] the history list (newest first),
// KEYS[3] the sorted set of times of this call key.
const OBSERVE = new Script(`
local key, now = ARGV[1], tonumber(ARGV[2])
local maxRepeats, maxInWindow, window, historySize = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local blocks, entry, ttl = ARGV[7] == '1', ARGV[8], tonumber(ARGV[9])
local held = redis.call('HMGET', KEYS[1], 'k', 'n')
local streak = 1
if held[1] == key then streak = (tonumber(held[2]) or 0) + 1 end
local inWindow = 0
if maxInWindow > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
  inWindow = redis.call('ZCARD', KEYS[3]) + 1
end
redis.call('HSET', KEYS[1], 'k', key, 'n', streak)
redis.call('PEXPIRE', KEYS[1], ttl)
local hit = (maxRepeats > 0 and streak >= maxRepeats) or (maxInWindow > 0 and inWindow >= maxInWindow)
if not (hit and blocks) then
  if maxInWindow > 0 then
    redis.call('ZADD', KEYS[3], now, entry)
    redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -(maxInWindow + 1))
    redis.call('PEXPIRE', KEYS[3], math.ceil(window))
  end
  redis.call('LPUSH', KEYS[2], entry)
  redis.call('LTRIM', KEYS[2], 0, historySize - 1)
  redis.call('PEXPIRE', KEYS[2], ttl)
end
return {streak, inWindow}
`);

const toCounts = (reply: unknown): LoopCounts => {
  const [streak, inWindow] = reply as [number, number];
  return { streak, inWindow };
};

// What a call counts as when Redis cannot say: a first one.
const firstCall = (): LoopCounts => ({ streak: 1, inWindow: 1 });

/** Options of {@link redisLoopGuardStore}. */
export interface RedisLoopGuardStoreOptions extends RedisStoreOptions {
  /** How long a scope's streak and history outlive its last call. Default 1 hour. */
  ttlMs?: number;
}

/** A loop-guard store in Redis: every method answers with a promise. */
export interface RedisLoopGuardStore extends LoopGuardStore {
  observe(scope: LoopScopeRef, key: string, now: number, rule: LoopRule, entry: LoopHistoryEntry): Promise<LoopCounts>;
  history(scope: LoopScopeRef): Promise<LoopHistoryEntry[]>;
  reset(scope?: LoopScopeRef): Promise<void>;
}

/**
 * Loop-guard streaks, windows and histories in Redis, so an agent role (or crew) looping across
 * several processes is noticed as one. Scopes are keyed by their id (`agent:<role>`,
 * `crew:<name>`, `global`), not by object: every agent with one role shares a scope. Each call is
 * one script over the scope's keys (`<prefix>lg:{<scope>}:…`, one hash tag, so it runs on a
 * cluster); windows expire with `windowMs`, streaks and histories `ttlMs` after the scope's last
 * call. Calls are timed by each process's clock.
 *
 * When Redis does not answer within `timeoutMs`, the default `"fail-open"` counts nothing (the
 * call goes on as if it were the first); `"fail-closed"` makes a blocking guard block it.
 *
 * @example
 * ```ts
 * const store = redisLoopGuardStore({ client: new Redis(process.env.REDIS_URL) });
 * hooks.use(loopGuard({ maxRepeats: 5, action: "block", store }));
 * ```
 */
export function redisLoopGuardStore(options: RedisLoopGuardStoreOptions): RedisLoopGuardStore {
  const c = connect(options, "loop-guard", ["ttlMs"], "fail-open");
  const ttlMs = options.ttlMs ?? 3_600_000;
  if (typeof ttlMs !== "number" || !Number.isInteger(ttlMs) || ttlMs < 1) {
    throw c.invalid(`\`ttlMs\` must be a positive whole number of milliseconds, got ${String(ttlMs)}`);
  }
  const base = `${c.prefix}lg:`;
  const scopeKey = (scope: LoopScopeRef) => `${base}{${scope.id}}`;
  let calls = 0;
  return {
    observe(scope, key, now, rule, entry) {
      const s = scopeKey(scope);
      // The member is unique per call (a history entry with this process's token and a counter).
      const member = JSON.stringify({ ...entry, n: `${c.token}:${++calls}` });
      const args = [
        key,
        now,
        rule.maxRepeats,
        rule.maxInWindow,
        rule.windowMs,
        rule.historySize,
        rule.blocks ? "1" : "0",
        member,
        Math.max(ttlMs, Math.ceil(rule.windowMs)),
      ];
      return guardedScript(c, "observe", OBSERVE, [`${s}:s`, `${s}:h`, `${s}:w:${key}`], args, toCounts, firstCall);
    },
    history(scope) {
      return guarded(c, "history", async () => {
        const items = await c.client.lrange(`${scopeKey(scope)}:h`, 0, -1);
        return items.reverse().map((text) => {
          const { toolName, agentRole, callId, at } = JSON.parse(text) as LoopHistoryEntry;
          return { toolName, agentRole: agentRole ?? undefined, callId, at };
        });
      });
    },
    reset(scope) {
      return guarded(c, "reset", async () => {
        const pattern = scope === undefined ? `${globEscape(base)}*` : `${globEscape(scopeKey(scope))}:*`;
        await deleteMatching(c.client, pattern);
      });
    },
  };
}
