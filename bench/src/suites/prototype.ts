import compose from "koa-compose";
import { EXPECTED, input, type QueryInput, TOOL_NAME, trivialTool } from "../fixtures.js";
import { type Cases, countsHooks, expectString, runCase, type Subject } from "../harness.js";
import type { ProtoHook, ProtoOutcome } from "../prototype/engine.js";
import { ProtoHooks } from "../prototype/hooks.js";
import { direct, floorOutcome } from "../references.js";
import { type HookMix, kindAt } from "../toolware-stack.js";

// The scratch prototype of bench/src/prototype beside koa-compose and the 0-hook floor, in one process:
// what the hot-path techniques reach on their own, and what composing middlewares with koa-compose costs
// against a dispatcher of the prototype's own.

const tool = { name: TOOL_NAME, execute: trivialTool };

function hooksOf(n: number, mix: HookMix, probe?: () => void): ProtoHook[] {
  return Array.from({ length: n }, (_, i): ProtoHook => {
    const kind = kindAt(mix, i);
    const fn =
      kind === "middleware"
        ? async (_c: unknown, next: () => Promise<void>) => {
            probe?.();
            await next();
          }
        : () => {
            probe?.();
          };
    return { kind, fn, policy: "block", name: `h${i}` };
  });
}

function proto(id: string, label: string, n: number, mix: HookMix, composer: "koa" | "own"): Subject {
  const build = (probe?: () => void) => {
    const hooks = new ProtoHooks(hooksOf(n, mix, probe), composer);
    return () => hooks.invoke(tool, input);
  };
  return {
    id,
    label,
    hooks: n,
    run: build(),
    check: (v) => {
      const o = v as ProtoOutcome;
      expectString(EXPECTED)(o.result);
      if (o.trace.length !== n) throw new Error(`trace has ${o.trace.length} entries, expected ${n}`);
    },
    verify: countsHooks(build, n),
  };
}

interface KoaCtx {
  input: QueryInput;
  result: string | undefined;
}

function koa10(): Subject {
  const build = (probe?: () => void) => {
    const mws = Array.from({ length: 10 }, () => async (_c: KoaCtx, next: () => Promise<void>) => {
      probe?.();
      await next();
    });
    const run = compose<KoaCtx>([
      ...mws,
      async (ctx) => {
        ctx.result = await trivialTool(ctx.input);
      },
    ]);
    return async () => {
      const ctx: KoaCtx = { input, result: undefined };
      await run(ctx);
      return ctx.result;
    };
  };
  return {
    id: "koa-10",
    label: "koa-compose, 10 async pass-through middlewares",
    hooks: 10,
    run: build(),
    check: expectString(EXPECTED),
    verify: countsHooks(build, 10),
  };
}

const cases: Cases = {
  kinds: () => [
    direct,
    floorOutcome,
    koa10(),
    proto("proto-0", "prototype, 0 hooks", 0, "sync", "koa"),
    proto("proto-10-sync", "prototype, 10 sync hooks (5 before, 5 after)", 10, "sync", "koa"),
    proto("proto-10-one-mw", "prototype, 5 before + 4 after + 1 middleware, koa-compose", 10, "one-middleware", "koa"),
    proto(
      "proto-10-one-mw-own",
      "prototype, 5 before + 4 after + 1 middleware, own dispatcher",
      10,
      "one-middleware",
      "own",
    ),
    proto("proto-10-mw", "prototype, 10 middlewares, koa-compose", 10, "middleware", "koa"),
    proto("proto-10-mw-own", "prototype, 10 middlewares, own dispatcher", 10, "middleware", "own"),
  ],
};

await runCase("prototype", cases, { rounds: 30, roundMs: 30 }, [
  "bench/src/prototype/engine.ts: before/after/middleware hooks with per-hook policies, `false` blocks, string results of after-hooks replace the result, one frozen trace entry per hook and action, unique call ids, an 8-field outcome; no layers, filters, timeouts, input tracking, events or signals.",
  "Its 0-hook call builds the outcome in the tool's own `.then`; each middleware is one step with the plain hooks just outside it and one `.then(ok, err)` for its policy and trace; the plain hooks inside the last middleware run around the tool. Middlewares are composed by koa-compose or by the prototype's own dispatcher.",
]);
