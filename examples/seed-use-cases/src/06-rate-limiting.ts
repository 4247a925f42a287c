// Seed use case 6, rate limiting: at most 10 calls per tool per minute.
// The seed returns False, so the agent only learns "blocked"; here the agent is told when to retry. The seed's
// list-then-append also races once hooks are async; the pack reserves the slot synchronously, so it stays exact
// when 25 calls arrive at once.
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { rateLimit } from "@toolware/packs/rate-limit";

export interface RateLimitingSummary {
  /** Statuses of 12 sequential calls (10 allowed, then refused). */
  readonly sequential: readonly string[];
  /** What the agent read for the 11th call. */
  readonly refusal: string;
  /** After the minute has passed. */
  readonly afterWindow: string;
  /** 25 concurrent calls against a fresh per-agent limit of 10. */
  readonly concurrentAllowed: number;
  /** Token bucket: a burst of 5, then one more call every 200 ms. */
  readonly bucket: readonly string[];
  /** How often the search API was really hit. */
  readonly apiHits: number;
}

export async function main(log: (line: string) => void = console.log): Promise<RateLimitingSummary> {
  let clock = Date.UTC(2026, 0, 1); // a hand-driven clock, so windows pass instantly
  let apiHits = 0;
  const search = defineTool({
    name: "web_search",
    execute: async ({ query }: { query: string }) => {
      apiHits++;
      await Promise.resolve(); // a real API answers later: the limiter must not depend on that
      return `results for ${query}`;
    },
  });

  // Like the seed: 10 calls per tool per minute.
  const hooks = new ToolHooks();
  hooks.use(rateLimit({ max: 10, per: "1m", now: () => clock }));
  const sequential: string[] = [];
  let refusal = "";
  for (let i = 1; i <= 12; i++) {
    const outcome = await hooks.invoke(search, { query: `q${i}` });
    sequential.push(outcome.status);
    if (outcome.status === "blocked") {
      if (refusal === "") refusal = outcome.result;
      log(`🚫 call ${i}: ${outcome.result}`);
    }
    clock += 1_000;
  }
  clock += 60_000;
  const afterWindow = (await hooks.invoke(search, { query: "later" })).status;
  log(`a minute later: ${afterWindow}`);

  // Per agent, hit by 25 concurrent calls: exactly 10 get through.
  const perAgent = new ToolHooks();
  perAgent.use(rateLimit({ max: 10, per: "1m", key: "tool+agent", now: () => clock }));
  const researcher = new Agent({ role: "researcher" });
  const burst = await Promise.all(
    Array.from({ length: 25 }, (_, i) => perAgent.invoke(search, { query: `burst${i}` }, { agent: researcher })),
  );
  const concurrentAllowed = burst.filter((o) => o.status === "ok").length;
  log(`25 concurrent calls by one agent: ${concurrentAllowed} allowed`);

  // A token bucket allows a burst, then refills steadily: 5 per second means one every 200 ms.
  const bucketHooks = new ToolHooks();
  bucketHooks.use(rateLimit({ max: 5, per: "1s", algorithm: "token-bucket", now: () => clock }));
  const bucket: string[] = [];
  for (let i = 0; i < 6; i++) bucket.push((await bucketHooks.invoke(search, { query: "tick" })).status);
  clock += 200;
  bucket.push((await bucketHooks.invoke(search, { query: "tick" })).status);
  log(`token bucket: ${bucket.join(", ")}`);

  return { sequential, refusal, afterWindow, concurrentAllowed, bucket, apiHits };
}
