import { createHooks } from "hookable";
import { EXPECTED, HOOK_COUNTS, input, type QueryInput, trivialTool } from "../fixtures.js";
import { type Cases, countsHooks, expectString, runCase, type Subject } from "../harness.js";
import { direct } from "../references.js";

// hookable with N hooks: half on "tool:before", half on "tool:after" (an odd one goes before),
// called around the tool the way a hookable user wires it. The hooks are sync `() => {}`.

interface HookCtx {
  input: QueryInput;
  result: string | undefined;
}

function hookableStack(n: number, probe?: () => void): () => Promise<string | undefined> {
  const hooks = createHooks<{ "tool:before": (ctx: HookCtx) => void; "tool:after": (ctx: HookCtx) => void }>();
  for (let i = 0; i < n; i++) {
    const fn = probe === undefined ? () => {} : () => probe();
    if (i % 2 === 0) hooks.hook("tool:before", fn);
    else hooks.hook("tool:after", fn);
  }
  return async () => {
    const ctx: HookCtx = { input, result: undefined };
    await hooks.callHook("tool:before", ctx);
    ctx.result = await trivialTool(ctx.input);
    await hooks.callHook("tool:after", ctx);
    return ctx.result;
  };
}

function hookable(n: number): Subject {
  return {
    id: `hookable-${n}`,
    label: `hookable, ${Math.ceil(n / 2)} before + ${Math.floor(n / 2)} after hooks`,
    hooks: n,
    run: hookableStack(n),
    check: expectString(EXPECTED),
    verify: countsHooks((probe) => hookableStack(n, probe), n),
  };
}

const cases: Cases = Object.fromEntries(HOOK_COUNTS.map((n) => [String(n), () => [direct, hookable(n)]]));

await runCase("hookable", cases, { rounds: 30, roundMs: 30 }, [
  "hookable 6.1.2 `createHooks()`: `await callHook('tool:before', ctx)`, the tool, `await callHook('tool:after', ctx)`; sync hooks. On Node 20 hookable runs each hook inside `console.createTask(name).run()`.",
]);
