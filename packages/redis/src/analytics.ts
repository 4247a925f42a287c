import type { CallStatus } from "@toolware/core";
import {
  type AnalyticsCallRecord,
  type AnalyticsSnapshot,
  type AnalyticsStore,
  latencyBucket,
} from "@toolware/packs/analytics";
import { mergeCounts, parseCounts, type RawCounts, toStats } from "./analytics-stats.js";
import { guarded, guardedScript } from "./deadline.js";
import { connect, deleteMatching, globEscape, type RedisStoreOptions, Script } from "./shared.js";

// One hash per (tool, agent role) pair that was called, plus an index set of the pairs; per tool,
// per agent and in total are sums of pairs, made when read. Fields: n (calls), ok, err, blk,
// sub (substituted), tn (timed calls), ts (their total, ns), mn and mx (ns), b<i> (bucket i).
// Everything is an integer, so counts from any number of processes add up exactly.
const RECORD = new Script(`
local h = KEYS[2]
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('HINCRBY', h, 'n', 1)
redis.call('HINCRBY', h, ARGV[2], 1)
if ARGV[3] == '1' then redis.call('HINCRBY', h, 'sub', 1) end
if ARGV[4] ~= '' then
  local d = tonumber(ARGV[4])
  redis.call('HINCRBY', h, 'tn', 1)
  redis.call('HINCRBY', h, 'ts', ARGV[4])
  redis.call('HINCRBY', h, ARGV[5], 1)
  local m = redis.call('HMGET', h, 'mn', 'mx')
  if not m[1] or d < tonumber(m[1]) then redis.call('HSET', h, 'mn', ARGV[4]) end
  if not m[2] or d > tonumber(m[2]) then redis.call('HSET', h, 'mx', ARGV[4]) end
end
redis.call('PEXPIRE', h, ARGV[6])
return 1
`);

const OUTCOME: Record<CallStatus, string> = { ok: "ok", error: "err", blocked: "blk" };

/** Options of {@link redisAnalyticsStore}. */
export interface RedisAnalyticsStoreOptions extends RedisStoreOptions {
  /** How long counters outlive the last call that touched them. Default 7 days. */
  ttlMs?: number;
  /** Keeps several analytics stores apart on one prefix (the cluster hash tag). Default `"default"`. No braces. */
  name?: string;
}

/** An analytics store in Redis: every method answers with a promise. */
export interface RedisAnalyticsStore extends AnalyticsStore {
  /** Never rejects: a call Redis did not count is reported through `onFallback`. */
  record(call: AnalyticsCallRecord): Promise<void>;
  /** Rejects with `TOOLWARE_REDIS_UNAVAILABLE` when Redis does not answer within `timeoutMs`. */
  snapshot(): Promise<AnalyticsSnapshot>;
  reset(): Promise<void>;
}

/**
 * Analytics counters and latency histograms in Redis, summed over every process sharing the
 * server: each recorded call is one Lua script (`EVALSHA`) that adds it to the hash of its tool
 * and agent role, `<prefix>an:{<name>}:c:<pair>`. Durations go into fixed buckets
 * (`LATENCY_BUCKETS_MS`), so histograms merge exactly; percentiles are estimated from them
 * (within 9.1 %), min, max, mean and counts are exact. Every key carries the same hash tag, so
 * the script and the reads work on a cluster, and expires `ttlMs` after its last call.
 *
 * Counting never slows or fails a call: the pack does not wait for `record`, and a call Redis
 * does not count within `timeoutMs` is dropped with an `onFallback` event (`action: "allowed"`).
 * Reading (`stats()`) or resetting while Redis is away rejects with `TOOLWARE_REDIS_UNAVAILABLE`
 * rather than answering with partial numbers.
 *
 * @example
 * ```ts
 * const store = redisAnalyticsStore({ client: new Redis(process.env.REDIS_URL), prefix: "agents:" });
 * const usage = analytics({ store });
 * hooks.use(usage);
 * const { totals } = await usage.stats(); // every worker's calls
 * ```
 */
export function redisAnalyticsStore(options: RedisAnalyticsStoreOptions): RedisAnalyticsStore {
  const c = connect(options, "analytics", ["ttlMs", "name"], "fail-open");
  if (options.failure !== undefined && options.failure !== "fail-open") {
    throw c.invalid(
      "the analytics store always fails open when counting (a call is never blocked for its statistics) and rejects reads; leave `failure` out",
    );
  }
  const { ttlMs = 604_800_000, name = "default" } = options;
  if (typeof ttlMs !== "number" || !Number.isInteger(ttlMs) || ttlMs < 1) {
    throw c.invalid(`\`ttlMs\` must be a positive whole number of milliseconds, got ${String(ttlMs)}`);
  }
  if (typeof name !== "string" || name === "" || /[{}]/.test(name)) {
    throw c.invalid(`\`name\` must be a non-empty string without braces, got ${JSON.stringify(name) ?? typeof name}`);
  }
  const base = `${c.prefix}an:{${name}}:`;
  const index = `${base}i`;
  const pairKey = (member: string) => `${base}c:${member}`;
  const nothing = (): undefined => undefined;

  return {
    record({ toolName, agentRole, status, substituted, durationMs }) {
      const member = JSON.stringify([toolName, agentRole ?? null]);
      // A duration that is no finite number (a broken clock) counts the call untimed.
      const timed = typeof durationMs === "number" && Number.isFinite(durationMs);
      const ns = timed ? Math.round(Math.min(Math.max(durationMs * 1e6, -9e15), 9e15)) : 0;
      const args = [
        member,
        OUTCOME[status] ?? "blk",
        substituted ? "1" : "0",
        timed ? String(ns) : "",
        timed ? `b${latencyBucket(durationMs)}` : "",
        ttlMs,
      ];
      return guardedScript(c, "record", RECORD, [index, pairKey(member)], args, nothing, nothing);
    },
    snapshot() {
      return guarded(c, "snapshot", async () => {
        const members = await c.client.smembers(index);
        const pipeline = c.client.pipeline();
        for (const member of members) pipeline.hgetall(pairKey(member));
        const replies = members.length === 0 ? [] : ((await pipeline.exec()) ?? []);
        const tools = new Map<string, RawCounts>();
        const agents = new Map<string, RawCounts>();
        let totals: RawCounts | undefined;
        replies.forEach(([error, fields], i) => {
          if (error) throw error;
          const pair = parsePair(members[i] as string);
          const counts = parseCounts(fields as Record<string, string>);
          // An expired pair (its index entry outlived it) or foreign data counts for nothing.
          if (pair === undefined || counts === undefined) return;
          const [tool, agent] = pair;
          tools.set(tool, mergeCounts(tools.get(tool), counts));
          if (agent !== null) agents.set(agent, mergeCounts(agents.get(agent), counts));
          totals = mergeCounts(totals, counts);
        });
        // fromEntries defines own properties, so a tool named "__proto__" stays a plain key.
        const of = (m: Map<string, RawCounts>) => Object.fromEntries([...m].map(([k, v]) => [k, toStats(v)]));
        return { tools: of(tools), agents: of(agents), totals: toStats(totals) };
      });
    },
    reset() {
      return guarded(c, "reset", async () => {
        await deleteMatching(c.client, `${globEscape(base)}*`);
      });
    },
  };
}

function parsePair(member: string): [string, string | null] | undefined {
  try {
    const pair: unknown = JSON.parse(member);
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") return undefined;
    return typeof pair[1] === "string" || pair[1] === null ? [pair[0], pair[1]] : undefined;
  } catch {
    return undefined;
  }
}
