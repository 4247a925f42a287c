// snippet: packs-2.ts
import { Agent, definePack, defineTool, type Pack, type ToolCallHookContext, ToolHooks } from "@toolware/core";

/** Options of {@link callBudget}. */
export interface CallBudgetOptions {
  /** Tool calls allowed per agent. */
  max: number;
  /** Chain position. Default 50: outside the other guards, so a spent budget is answered first. */
  priority?: number;
}

/**
 * At most `max` tool calls per agent: a guard, so it fails closed.
 *
 * @example
 * ```ts
 * const budget = callBudget({ max: 20 });
 * hooks.use(budget);
 * budget.used(researcher); // 3
 * ```
 */
export function callBudget(options: CallBudgetOptions): Pack<{ used(agent: Agent): number; reset(): void }> {
  // Check options eagerly: a mistake should surface when the app starts, not on the first call.
  if (!Number.isInteger(options.max) || options.max < 1) {
    throw new TypeError(`my-app/call-budget: \`max\` must be a positive integer, got ${String(options.max)}`);
  }
  let spent = new WeakMap<Agent, number>();
  return definePack({
    name: "call-budget",
    stateful: true, // it counts across calls: one instance twice on a layer would count twice
    hooks: [
      {
        kind: "before",
        fn: function callBudget(ctx: ToolCallHookContext) {
          if (ctx.agent === undefined) return;
          const used = (spent.get(ctx.agent) ?? 0) + 1;
          if (used > options.max) return ctx.block(`tool budget of ${options.max} calls spent; give your answer now`);
          spent.set(ctx.agent, used);
        },
        options: { onError: "block", priority: options.priority ?? 50 },
      },
    ],
    // Extras stay on the pack: an API of its own for the app.
    used: (agent: Agent) => spent.get(agent) ?? 0,
    reset: () => {
      spent = new WeakMap();
    },
  });
}

const hooks = new ToolHooks();
const budget = callBudget({ max: 2 });
hooks.use(budget);
const search = defineTool({ name: "web_search", execute: () => "results" });
const researcher = new Agent({ role: "researcher" });
for (let i = 0; i < 3; i++) await hooks.invoke(search, {}, { agent: researcher });
console.log(
  budget.used(researcher),
  hooks.list().map((h) => h.name),
); // 2 ["call-budget"]
console.log((await hooks.invoke(search, {}, { agent: researcher })).reason);
// tool budget of 2 calls spent; give your answer now
