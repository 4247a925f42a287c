// snippet: packs-rate-limit-2.ts
import { defineTool, ToolHooks } from "@toolware/core";
import {
  type RateLimitDecision,
  type RateLimitRequest,
  type RateLimitStore,
  rateLimit,
} from "@toolware/packs/rate-limit";

// A fixed-window counter (coarser than the built-in algorithms), e.g. to mirror an upstream API's own quota.
class FixedWindowStore implements RateLimitStore {
  readonly #windows = new Map<string, { start: number; count: number }>();

  hit(key: string, { algorithm, max, windowMs, now }: RateLimitRequest): RateLimitDecision {
    if (algorithm !== "sliding-window") throw new Error(`FixedWindowStore does not do ${algorithm}`);
    // Check and record in one synchronous step: no await between reading the count and raising it.
    let window = this.#windows.get(key);
    if (window === undefined || now >= window.start + windowMs) {
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    if (window.count >= max) return { allowed: false, remaining: 0, retryAfterMs: window.start + windowMs - now };
    window.count++;
    return { allowed: true, remaining: max - window.count, retryAfterMs: 0 };
  }

  reset(key?: string): void {
    if (key === undefined) this.#windows.clear();
    else this.#windows.delete(key);
  }
}

const search = defineTool({ name: "web_search", execute: ({ query }: { query: string }) => `results for ${query}` });
const hooks = new ToolHooks();
const limiter = rateLimit({ max: 10, per: "1m", store: new FixedWindowStore() });
hooks.use(limiter);
// The limiter's decision is on ctx.state for the hooks inside it.
hooks.after((ctx) => {
  const decision = ctx.state.rateLimit;
  if (decision?.allowed && decision.remaining === 0) console.log(`that was the last call for ${decision.key}`);
});

// 25 calls at once: the store's atomic hit lets exactly 10 through.
const outcomes = await Promise.all(Array.from({ length: 25 }, (_, i) => hooks.invoke(search, { query: `q${i}` })));
// "that was the last call for tool:web_search"
console.log(outcomes.filter((o) => o.status === "ok").length); // 10
await limiter.reset(); // forgets every key of this limiter
console.log((await hooks.invoke(search, { query: "again" })).status); // "ok"
