import type { ToolCallOutcome } from "@toolware/core";
import compose from "koa-compose";
import { EXPECTED, input, type QueryInput, trivialTool } from "../fixtures.js";
import { type Cases, countsHooks, expectString, runCase, type Subject } from "../harness.js";
import { direct, floorOutcome } from "../references.js";
import { type StackOptions, toolwareStack } from "../toolware-stack.js";

// toolware and its own baseline (bare koa-compose) share this process: neither uses AsyncLocalStorage,
// and the 10-hook target compares the two directly.

interface KoaCtx {
  input: QueryInput;
  result: string | undefined;
}

type KoaMiddleware = (ctx: KoaCtx, next: () => Promise<void>) => Promise<void>;

// `isolated` wraps each middleware in the least a per-middleware error policy needs: an async
// boundary that catches its rejection. It is the floor for any framework that isolates middlewares.
function koaStack(n: number, probe?: () => void, isolated = false): () => Promise<string | undefined> {
  const middlewares: KoaMiddleware[] = [];
  for (let i = 0; i < n; i++) {
    const mw: KoaMiddleware =
      probe === undefined
        ? async (_ctx, next) => {
            await next();
          }
        : async (_ctx, next) => {
            probe();
            await next();
          };
    middlewares.push(
      isolated
        ? async (ctx, next) => {
            try {
              await mw(ctx, next);
            } catch {
              // a policy would apply here
            }
          }
        : mw,
    );
  }
  middlewares.push(async (ctx) => {
    ctx.result = await trivialTool(ctx.input);
  });
  const run = compose(middlewares);
  return async () => {
    const ctx: KoaCtx = { input, result: undefined };
    await run(ctx);
    return ctx.result;
  };
}

function checkOutcome(hooks: number): (value: unknown) => void {
  const check = expectString(EXPECTED);
  return (value) => {
    const outcome = value as ToolCallOutcome<string>;
    if (outcome.status !== "ok") throw new Error(`status ${outcome.status}: ${outcome.reason ?? ""}`);
    check(outcome.result);
    if (outcome.trace.length !== hooks) throw new Error(`trace has ${outcome.trace.length} entries, expected ${hooks}`);
  };
}

function tw(id: string, label: string, options: StackOptions): Subject {
  return {
    id,
    label,
    hooks: options.hooks,
    run: toolwareStack(options).call,
    check: checkOutcome(options.hooks),
    verify: countsHooks((probe) => toolwareStack({ ...options, probe }).call, options.hooks),
  };
}

function koa(n: number, isolated = false): Subject {
  return {
    id: isolated ? `koa-${n}-isolated` : `koa-${n}`,
    label: isolated
      ? `koa-compose, ${n} middlewares each in a try/await boundary (the isolation floor)`
      : `koa-compose, ${n} async pass-through middlewares`,
    hooks: n,
    run: koaStack(n, undefined, isolated),
    check: expectString(EXPECTED),
    verify: countsHooks((probe) => koaStack(n, probe, isolated), n),
  };
}

const MIXED: Record<number, string> = {
  0: "0 hooks",
  1: "1 hook (before)",
  10: "10 hooks (4 before, 3 after, 3 middleware)",
  50: "50 hooks (17 before, 17 after, 16 middleware)",
};

// One process per case, so each configuration runs with the JIT state it would have alone; the
// baselines a target compares with share its process (koa-compose with the same number of layers).
const cases: Cases = {
  "0": () => [direct, floorOutcome, koa(0), tw("toolware-0", `toolware, ${MIXED[0]}`, { hooks: 0 })],
  "1": () => [direct, koa(1), tw("toolware-1", `toolware, ${MIXED[1]}`, { hooks: 1 })],
  "10": () => [direct, koa(10), tw("toolware-10", `toolware, ${MIXED[10]}`, { hooks: 10 })],
  "50": () => [direct, koa(50), tw("toolware-50", `toolware, ${MIXED[50]}`, { hooks: 50 })],
  filtered: () => [
    direct,
    tw("toolware-10", `toolware, ${MIXED[10]}`, { hooks: 10 }),
    tw("toolware-10-plus-1000", "toolware, the same 10 hooks + 1,000 filtered to other tools/agents", {
      hooks: 10,
      nonMatching: 1000,
    }),
  ],
  kinds: () => [
    direct,
    tw("toolware-0", `toolware, ${MIXED[0]}`, { hooks: 0 }),
    tw("toolware-10-sync", "toolware, 10 sync hooks (5 before, 5 after)", { hooks: 10, mix: "sync" }),
    tw("toolware-10-one-mw", "toolware, 10 hooks (5 before, 4 after, 1 middleware)", {
      hooks: 10,
      mix: "one-middleware",
    }),
    tw("toolware-10-mw", "toolware, 10 middlewares", { hooks: 10, mix: "middleware" }),
    koa(0),
    koa(10),
    koa(10, true),
  ],
  timing: () => [
    direct,
    tw("toolware-10", `toolware, ${MIXED[10]}`, { hooks: 10 }),
    tw("toolware-10-timing", `toolware, ${MIXED[10]}, \`timing: true\``, { hooks: 10, timing: true }),
  ],
};

await runCase("toolware", cases, { rounds: 40, roundMs: 30 }, [
  "toolware hooks are spread over the global, crew and agent layers with tool/agent filters (exact, glob, list, RegExp, role); each call is `hooks.invoke(tool, input, { agent, crew })`.",
  "before/after hooks are sync `() => {}`; toolware and koa-compose middlewares are `async (ctx, next) => { await next(); }`; the koa-compose stack ends in `async (ctx) => { ctx.result = await tool(ctx.input); }`.",
]);
