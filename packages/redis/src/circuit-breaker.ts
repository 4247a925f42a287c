import { ToolwareTypeError } from "@toolware/core";
import type {
  CircuitAdmission,
  CircuitOutcome,
  CircuitPolicy,
  CircuitSnapshot,
  CircuitState,
  CircuitStore,
  CircuitTransition,
} from "@toolware/packs/circuit-breaker";
import { guarded, guardedScript } from "./deadline.js";
import { connect, globEscape, type RedisStoreOptions, Script, scanKeys } from "./shared.js";

// A circuit is one hash: s (state), f (failures), o (opened at), h (half-open since), n (trials),
// e (the half-open period's token). A closed circuit without failures has no key at all.
const ADMIT = new Script(`
local c = redis.call('HMGET', KEYS[1], 's', 'o', 'h', 'n', 'e')
if not c[1] or c[1] == 'closed' then return {1, '', ''} end
local now, cooldown, halfOpenMax, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[5])
local change = ''
local trials, epoch = tonumber(c[4]) or 0, c[5] or ''
if c[1] == 'open' then
  local retry = tonumber(c[2]) + cooldown - now
  if retry > 0 then return {0, 'open', tostring(math.ceil(retry))} end
  change = 'open'
elseif now - (tonumber(c[3]) or now) >= math.max(cooldown, 1000) then
  -- Trials that never reported (their process died) must not hold the circuit half-open for ever.
  change = 'half-open'
end
if change ~= '' then
  trials, epoch = 0, ARGV[4]
  redis.call('HSET', KEYS[1], 's', 'half-open', 'h', string.format('%.17g', now), 'n', 0, 'e', epoch)
  redis.call('PEXPIRE', KEYS[1], ttl)
end
if trials >= halfOpenMax then return {0, 'half-open', '0', change} end
redis.call('HINCRBY', KEYS[1], 'n', 1)
return {1, epoch, change}
`);

const RECORD = new Script(`
local c = redis.call('HMGET', KEYS[1], 's', 'e')
local outcome, trial, now, threshold, ttl = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
if trial ~= '' then
  if c[1] ~= 'half-open' or c[2] ~= trial then return '' end
  if outcome == 'neutral' then redis.call('HINCRBY', KEYS[1], 'n', -1) return '' end
  if outcome == 'success' then redis.call('DEL', KEYS[1]) return 'half-open>closed' end
  redis.call('HSET', KEYS[1], 's', 'open', 'o', now, 'n', 0)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return 'half-open>open'
end
if c[1] and c[1] ~= 'closed' then return '' end
if outcome == 'success' then redis.call('DEL', KEYS[1]) return '' end
if outcome == 'neutral' then return '' end
local failures = redis.call('HINCRBY', KEYS[1], 'f', 1)
if failures >= threshold then
  redis.call('HSET', KEYS[1], 's', 'open', 'o', now, 'n', 0)
  redis.call('PEXPIRE', KEYS[1], ttl)
  return 'closed>open'
end
redis.call('HSET', KEYS[1], 's', 'closed')
redis.call('PEXPIRE', KEYS[1], ttl)
return ''
`);

// Deletes a circuit and says what it was, in one step.
const RESET = new Script(`
local s = redis.call('HGET', KEYS[1], 's')
redis.call('DEL', KEYS[1])
return s or ''
`);

/** Options of {@link redisCircuitStore}. */
export interface RedisCircuitStoreOptions extends RedisStoreOptions {
  /**
   * How long a circuit's record lives after its last change, on top of the cool-down: failures
   * further apart than this are not consecutive. Default 1 hour.
   */
  ttlMs?: number;
}

/** A circuit store in Redis: every method answers with a promise. */
export interface RedisCircuitStore extends CircuitStore {
  admit(key: string, now: number, policy: CircuitPolicy): Promise<CircuitAdmission>;
  record(
    key: string,
    outcome: CircuitOutcome,
    trial: string | undefined,
    now: number,
    policy: CircuitPolicy,
  ): Promise<CircuitTransition | undefined>;
  snapshot(key: string, now: number, policy: CircuitPolicy): Promise<CircuitSnapshot>;
  reset(key?: string): Promise<Array<readonly [string, CircuitState]>>;
}

const toTransition = (reply: unknown): CircuitTransition | undefined => {
  const [from, to] = String(reply).split(">") as [CircuitState, CircuitState | undefined];
  return to === undefined ? undefined : { from, to };
};

const toAdmission = (raw: unknown): CircuitAdmission => {
  const reply = raw as [number, string, string, string?];
  const change = reply[0] === 1 ? reply[2] : reply[3];
  const moved =
    change === "" || change === undefined ? undefined : { from: change as CircuitState, to: "half-open" as const };
  if (reply[0] === 1) return reply[1] === "" ? { allowed: true } : { allowed: true, trial: reply[1], change: moved };
  const state = reply[1] as "open" | "half-open";
  return { allowed: false, state, retryInMs: Number(reply[2]), change: moved };
};

const letThrough = (): CircuitAdmission => ({ allowed: true });
const nothing = (): undefined => undefined;

/**
 * Circuit-breaker state in Redis: a circuit opened by failures in one process is open in every
 * process sharing the server, and half-open trial slots are counted across all of them. Each
 * decision is one Lua script on one key (`<prefix>cb:{<key>}`), so it works on a cluster. A
 * half-open period whose trials have not reported after the cool-down (at least 1 s), as when
 * their process died, starts over with fresh trial slots.
 *
 * When Redis does not answer within `timeoutMs`, the default `"fail-closed"` blocks the call;
 * `"fail-open"` lets it through as if the circuit were closed (its outcome is then not counted).
 *
 * @example
 * ```ts
 * const store = redisCircuitStore({ client: new Redis(process.env.REDIS_URL) });
 * hooks.use(circuitBreaker({ failureThreshold: 5, cooldownMs: 30_000, store }));
 * ```
 */
export function redisCircuitStore(options: RedisCircuitStoreOptions): RedisCircuitStore {
  const c = connect(options, "circuit-breaker", ["ttlMs"], "fail-closed");
  const ttlMs = options.ttlMs ?? 3_600_000;
  if (typeof ttlMs !== "number" || !Number.isInteger(ttlMs) || ttlMs < 1) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `toolware/redis: \`ttlMs\` must be a positive whole number of milliseconds, got ${String(ttlMs)}`,
    );
  }
  const base = `${c.prefix}cb:`;
  const keyOf = (key: string) => `${base}{${key}}`;
  let periods = 0;
  const ttl = (policy: CircuitPolicy) => Math.ceil(policy.cooldownMs) + ttlMs;

  return {
    admit(key, now, policy) {
      const token = `${c.token}:${++periods}`;
      const args = [now, policy.cooldownMs, policy.halfOpenMax, token, ttl(policy)];
      return guardedScript(c, "admit", ADMIT, [keyOf(key)], args, toAdmission, letThrough);
    },
    record(key, outcome, trial, now, policy) {
      const args = [outcome, trial ?? "", now, policy.failureThreshold, ttl(policy)];
      return guardedScript(c, "record", RECORD, [keyOf(key)], args, toTransition, nothing);
    },
    snapshot(key, now, { cooldownMs }) {
      return guarded(c, "snapshot", async (): Promise<CircuitSnapshot> => {
        const [s, f, o, n] = await c.client.hmget(keyOf(key), "s", "f", "o", "n");
        const failures = Number(f ?? 0);
        if (s === null || s === "closed") return { state: "closed", failures, trials: 0 };
        if (s === "half-open") return { state: "half-open", failures, trials: Number(n ?? 0) };
        const retryInMs = Number(o) + cooldownMs - now;
        return retryInMs > 0
          ? { state: "open", failures, trials: 0, retryInMs }
          : { state: "half-open", failures, trials: 0 };
      });
    },
    reset(key) {
      return guarded(c, "reset", async () => {
        const keys = key === undefined ? await scanKeys(c.client, `${globEscape(base)}*`) : [keyOf(key)];
        const closed: Array<readonly [string, CircuitState]> = [];
        await Promise.all(
          keys.map(async (k) => {
            const was = String(await RESET.run(c.client, [k], []));
            // The circuit's name sits between the first "{" after the prefix and the last "}".
            if (was !== "" && was !== "closed") closed.push([k.slice(base.length + 1, -1), was as CircuitState]);
          }),
        );
        return closed;
      });
    },
  };
}
