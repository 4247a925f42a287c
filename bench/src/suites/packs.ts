import { defineTool, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { cache } from "@toolware/packs/cache";
import { rateLimit } from "@toolware/packs/rate-limit";
import { EXPECTED, input, TOOL_NAME } from "../fixtures.js";
import { type Cases, expectString, runCase, type Subject } from "../harness.js";
import { direct } from "../references.js";
import { toolwareStack } from "../toolware-stack.js";

// What the two packs on every hot path cost per call: a cache hit and a rate-limit check that lets the
// call through, each against a call with no hook at all in the same process (same tool, same bindings).

function checkOutcome(action: string): (value: unknown) => void {
  const check = expectString(EXPECTED);
  return (value) => {
    const outcome = value as ToolCallOutcome<string>;
    if (outcome.status !== "ok") throw new Error(`status ${outcome.status}: ${outcome.reason ?? ""}`);
    check(outcome.result);
    const entry = outcome.trace[0];
    if (outcome.trace.length !== 1 || entry?.action !== action) {
      throw new Error(`expected one ${action} trace entry, got ${JSON.stringify(outcome.trace)}`);
    }
  };
}

const zero = (): Subject => ({
  id: "toolware-0",
  label: "toolware, 0 hooks",
  hooks: 0,
  run: toolwareStack({ hooks: 0 }).call,
  check: checkZero,
});

function checkZero(value: unknown): void {
  const outcome = value as ToolCallOutcome<string>;
  expectString(EXPECTED)(outcome.result);
  if (outcome.trace.length !== 0) throw new Error("a call without hooks has an empty trace");
}

// Proves on a separate stack that hits never run the tool: one run for the first call, none after.
async function verifyHits(): Promise<void> {
  let runs = 0;
  const tool = defineTool({
    name: TOOL_NAME,
    execute: async (args: { query: string }) => {
      runs++;
      return args.query;
    },
  });
  const hooks = new ToolHooks();
  const pack = cache({ tools: TOOL_NAME, ttl: "1h" });
  hooks.use(pack);
  for (let i = 0; i < 5; i++) await hooks.invoke(tool, input);
  if (runs !== 1 || pack.stats().hits !== 4) throw new Error(`expected 1 run and 4 hits, got ${runs} runs`);
}

function cacheHit(): Subject {
  const stack = toolwareStack({ hooks: 0 });
  stack.hooks.use(cache({ tools: TOOL_NAME, ttl: "1h" }));
  return {
    id: "cache-hit",
    label: 'toolware, cache pack (default key, in-memory store), every call a hit: `cache({ tools, ttl: "1h" })`',
    hooks: 1,
    run: stack.call,
    // The first call (the check's) is the miss that stores the result; every timed call is a hit.
    check: async (value) => {
      checkOutcome("proceeded")(value);
      checkOutcome("substituted")(await stack.call());
    },
    verify: verifyHits,
  };
}

// 60 calls a minute with a clock that moves 2 s per call: every call is checked against a window of
// 30 earlier hits, and none is refused, whatever the machine's speed.
function rateLimited(): Subject {
  const stack = toolwareStack({ hooks: 0 });
  let skew = 0;
  const now = (): number => {
    skew += 2000;
    return Date.now() + skew;
  };
  stack.hooks.use(rateLimit({ max: 60, per: "1m", now }));
  return {
    id: "rate-limit",
    label: 'toolware, rate-limit pack, in-memory store, not limited: `rateLimit({ max: 60, per: "1m" })`',
    hooks: 1,
    run: stack.call,
    check: checkOutcome("proceeded"),
  };
}

const cases: Cases = {
  cache: () => [direct, zero(), cacheHit()],
  "rate-limit": () => [direct, zero(), rateLimited()],
};

await runCase("packs", cases, { rounds: 30, roundMs: 30 }, [
  "Both stacks are the toolware suite's 0-hook stack (same tool, `invoke(tool, input, { agent, crew })`) with the pack added to the global layer; the target compares each with the 0-hook call of the same process.",
  "cache: the key is the default (the tool name and the canonical JSON of the input); the first call stores the result, every timed call is served from the in-memory store (the tool does not run).",
  "rate-limit: the default sliding window in the in-memory store; the limiter's clock is Date.now() plus 2 s per call, so no call is refused however fast the machine runs (each call sees the 30 earlier hits of its window).",
]);
