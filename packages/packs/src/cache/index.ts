import { definePack, type Next, type Pack, type Tool, type ToolCallHookContext, type ToolInput } from "@toolware/core";
import { parseDuration } from "../internal/duration.js";
import { packTypeError, shown } from "../internal/errors.js";
import { isPlainObject } from "../internal/in-place.js";
import { ownOptions } from "../internal/options.js";
import { isThenable } from "../internal/thenable.js";
import { toolFilter } from "../internal/tool-selector.js";
import { cacheKeys, SEP } from "./call-key.js";
import { awaitFlight, createFlight, type Flight, type FlightOutcome, failedFlight, isAborted } from "./flight.js";
import { type CacheOptions, validate } from "./options.js";
import { scopeFunction } from "./scope.js";
import { type CacheEntry, type CacheStore, memoryCacheStore } from "./store.js";

export { canonicalJson } from "../internal/canonical-json.js";
export type { ToolSelector } from "../internal/tool-selector.js";
export type { CacheOptions, CacheScope } from "./options.js";
export {
  type CacheEntry,
  type CacheStore,
  type MemoryCacheStore,
  type MemoryCacheStoreOptions,
  memoryCacheStore,
} from "./store.js";

/** What the cache did with a call: served it, ran it, shared another call's run, or stayed out. */
export type CacheOutcome = "hit" | "miss" | "dedupe" | "bypass";

declare module "@toolware/core" {
  interface ToolCallState {
    /** What the cache did with this call (the innermost cache's, when several apply). */
    cache?: CacheOutcome;
  }
}

/** Counters of a cache pack. */
export interface CacheStats {
  /** Calls answered from the store. */
  readonly hits: number;
  /** Calls that ran the rest of the chain (leaders, and followers of a leader that did not succeed). */
  readonly misses: number;
  /** Calls answered with the result of an identical call in flight. */
  readonly dedupes: number;
  /** Calls whose input could not be serialised (a cycle, a Map…) or whose scope failed: run without the cache. */
  readonly bypassed: number;
  /** Results written to the store. */
  readonly stored: number;
  readonly storeErrors: number;
  /** Calls other identical calls can wait on right now. */
  readonly inFlight: number;
}

/** The pack {@link cache} returns. */
export type CachePack = Pack<{
  readonly store: CacheStore;
  /** A copy of the counters. */
  stats(): CacheStats;
  /** Drops every entry; calls in flight will not store their result. */
  clear(): Promise<void>;
  /** Drops one tool's entries, or one input's; returns how many went. */
  invalidate(tool: string | Tool<never, unknown>, input?: ToolInput): Promise<number>;
}>;

/**
 * Serves repeated tool calls from a cache without running the tool: the key is
 * the tool name plus the canonical JSON of the input (key order does not
 * matter), computed when the cache middleware runs, so hooks outside it (higher
 * priority) have already normalised the input. Identical calls in flight share
 * one run. Only successful results are stored; errors and blocked calls are
 * not, and followers of a leader that failed or was blocked run on their own.
 * It fails open: a broken store means calls run uncached.
 *
 * @example
 * ```ts
 * const searches = cache({ tools: ["web_search"], ttl: "10m" });
 * hooks.use(searches);
 * await hooks.invoke(search, { query: "toolware", limit: 5 }); // runs the tool
 * await hooks.invoke(search, { limit: 5, query: "toolware" }); // served from the cache
 * searches.stats(); // { hits: 1, misses: 1, dedupes: 0, … }
 * ```
 */
export function cache(options: CacheOptions): CachePack {
  options = ownOptions(options, "toolware/cache");
  validate(options);
  const ttlMs = parseDuration(options.ttl === undefined ? "5m" : options.ttl, "ttl", "cache");
  const store =
    options.store ?? memoryCacheStore(options.maxEntries === undefined ? {} : { maxEntries: options.maxEntries });
  const clock = options.now ?? Date.now;
  const { keyInput, onStoreError } = options;
  const dedupe = options.dedupe ?? true;
  const inflight = new Map<string, Flight>();
  const n = { hits: 0, misses: 0, dedupes: 0, bypassed: 0, stored: 0, storeErrors: 0 };
  // Bumped by clear()/invalidate(): a run that started before must not store a result that may be stale.
  let generation = 0;

  const scopeOf = scopeFunction(options.scope);
  const { keyOf, callKey } = cacheKeys(keyInput, scopeOf);

  const storeFailed = (ctx: ToolCallHookContext, error: unknown, operation: "get" | "set"): void => {
    n.storeErrors++;
    try {
      onStoreError?.(error, operation);
    } catch (e) {
      // A broken error reporter must not break the cache (or strand the followers of a flight).
      ctx.reportError("cache.onStoreError", e);
    }
  };

  const release = (flight: Flight | undefined, outcome: FlightOutcome, saved?: PromiseLike<void>): void => {
    if (flight === undefined) return;
    flight.settle(outcome);
    const drop = () => {
      if (inflight.get(flight.key) === flight) inflight.delete(flight.key);
    };
    // Until an async write lands, late identical calls still find the (settled) flight instead of missing.
    if (saved === undefined) drop();
    else saved.then(drop, drop);
  };

  const save = (ctx: ToolCallHookContext, key: string, value: unknown): PromiseLike<void> | undefined => {
    try {
      const entry: CacheEntry = { value, expiresAt: clock() + ttlMs };
      const r = store.set(key, entry);
      n.stored++;
      return isThenable(r) ? Promise.resolve(r).catch((e: unknown) => storeFailed(ctx, e, "set")) : undefined;
    } catch (e) {
      storeFailed(ctx, e, "set");
      return undefined;
    }
  };

  const hit = (ctx: ToolCallHookContext, entry: CacheEntry): void => {
    n.hits++;
    ctx.state.cache = "hit";
    ctx.respond(entry.value);
  };

  const fresh = (entry: CacheEntry | undefined): entry is CacheEntry =>
    entry !== undefined && entry !== null && entry.expiresAt > clock();

  function run(ctx: ToolCallHookContext, next: Next, key: string, flight: Flight | undefined): Promise<void> {
    n.misses++;
    ctx.state.cache = "miss";
    const gen = generation;
    return next().then(
      () => {
        // toolResult is unset if the chain did not finish (a core-abandoned middleware): nothing to keep.
        if (ctx.status !== "ok" || ctx.toolResult === undefined) return release(flight, failedFlight);
        const value = ctx.rawToolResult;
        let saved: PromiseLike<void> | undefined;
        try {
          saved = gen === generation ? save(ctx, key, value) : undefined;
        } finally {
          release(flight, { ok: true, value }, saved);
        }
      },
      (e: unknown) => {
        release(flight, failedFlight);
        throw e;
      },
    );
  }

  function follow(ctx: ToolCallHookContext, next: Next, key: string, flight: Flight): Promise<void> {
    return awaitFlight(flight, ctx.signal).then((outcome) => {
      if (isAborted(outcome)) return ctx.block("cancelled while waiting for an identical call in flight");
      if (!outcome.ok) return run(ctx, next, key, undefined);
      n.dedupes++;
      ctx.state.cache = "dedupe";
      ctx.respond(outcome.value);
    });
  }

  function claim(key: string): Flight | undefined {
    if (!dedupe) return undefined;
    const flight = createFlight(key);
    inflight.set(key, flight);
    return flight;
  }

  // Plain function, no async: a hit from a sync store answers without a promise.
  function cacheMiddleware(ctx: ToolCallHookContext, next: Next): void | Promise<void> {
    let key: string;
    try {
      key = callKey(ctx);
    } catch {
      n.bypassed++;
      ctx.state.cache = "bypass";
      return next();
    }
    const flying = dedupe && inflight.size > 0 ? inflight.get(key) : undefined;
    if (flying !== undefined) return follow(ctx, next, key, flying);
    let got: CacheEntry | undefined | PromiseLike<CacheEntry | undefined>;
    let now = Number.NaN; // one clock reading: a sync store's entry is judged on the one it was asked with
    try {
      now = clock();
      got = store.get(key, now);
    } catch (e) {
      storeFailed(ctx, e, "get");
      got = undefined;
    }
    if (!isThenable(got)) {
      if (got !== undefined && got !== null && got.expiresAt > now) return hit(ctx, got);
      return run(ctx, next, key, claim(key));
    }
    // Claim the key before awaiting the store, so identical calls arriving meanwhile wait for this one.
    const flight = claim(key);
    return Promise.resolve(got)
      .then(
        (entry) => {
          if (!fresh(entry)) return run(ctx, next, key, flight);
          release(flight, { ok: true, value: entry.value });
          hit(ctx, entry);
        },
        (e: unknown) => {
          storeFailed(ctx, e, "get");
          return run(ctx, next, key, flight);
        },
      )
      .then(undefined, (e: unknown) => {
        // Whatever failed (a clock, a formatter), waiting followers must not hang; settling twice is a no-op.
        release(flight, failedFlight);
        throw e;
      });
  }

  const forget = (matches: (key: string) => boolean): void => {
    generation++;
    for (const [key, flight] of inflight) if (matches(key)) inflight.delete(flight.key);
  };

  return definePack({
    name: "cache",
    stateful: true,
    hooks: [
      {
        kind: "middleware",
        fn: cacheMiddleware,
        options: {
          name: "cache",
          onError: "continue",
          priority: options.priority ?? -100,
          tools: toolFilter(options.tools, "toolware/cache: tools"),
        },
      },
    ],
    store,
    stats: (): CacheStats => ({ ...n, inFlight: inflight.size }),
    async clear(): Promise<void> {
      forget(() => true);
      await store.clear();
    },
    async invalidate(tool: string | Tool<never, unknown>, input?: ToolInput): Promise<number> {
      const name: unknown = typeof tool === "string" ? tool : (tool as { name?: unknown } | null)?.name;
      // A wrong argument would match no entry: the stale results it was meant to drop would go on being served.
      if (typeof name !== "string" || name === "") {
        throw packTypeError(
          "TOOLWARE_INVALID_ARGUMENT",
          `toolware/cache: invalidate() takes a tool or its name, got ${shown(tool)}`,
        );
      }
      if (input !== undefined && !isPlainObject(input)) {
        throw packTypeError(
          "TOOLWARE_INVALID_ARGUMENT",
          `toolware/cache: invalidate()'s input must be a tool input object, got ${shown(input)}`,
        );
      }
      if (input === undefined) {
        const prefix = name + SEP;
        forget((key) => key.startsWith(prefix));
        return store.deletePrefix(prefix);
      }
      const key = keyOf(name, input);
      if (scopeOf !== undefined) {
        // One input has an entry per scope.
        forget((k) => k.startsWith(key + SEP));
        return store.deletePrefix(key + SEP);
      }
      forget((k) => k === key);
      return (await store.delete(key)) ? 1 : 0;
    },
  });
}
