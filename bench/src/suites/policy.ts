import { Environment } from "@marcbachmann/cel-js";
import type { ToolCallHookContext, ToolCallOutcome } from "@toolware/core";
import { compileCondition, loadPolicy, parsePolicyText } from "@toolware/policy";
import { EXPECTED, input, TOOL_NAME } from "../fixtures.js";
import { type Cases, expectString, runCase, type Subject } from "../harness.js";
import { fiftyRulePolicy } from "../policy-yaml.js";
import { direct } from "../references.js";
import { toolwareStack } from "../toolware-stack.js";

// What a policy file costs against the same rules written by hand as hooks, and what a CEL condition costs
// against a bare evaluation of the same pre-compiled expression.

const CONDITION = 'has(args.query) && size(args.query) < 100 && !args.query.contains("..")';

const policyYaml = (): string =>
  fiftyRulePolicy({ name: "researchers-search", match: `{ tools: [${TOOL_NAME}], agents: [researcher] }` });

function byHand(): Subject {
  const stack = toolwareStack({ hooks: 0 });
  const h = stack.hooks;
  for (let i = 0; i < 40; i++) {
    h.before((ctx) => ctx.block(`no tool_${i} for interns`), {
      name: `rule-${i}`,
      tools: `tool_${i}`,
      agents: "intern",
    });
  }
  for (let i = 0; i < 5; i++) {
    const tag = `payments-${i}`;
    h.before((ctx) => ctx.block(`payments ${i}`), { name: `tag-${i}`, tools: (ctx) => ctx.tool.tags.includes(tag) });
  }
  for (let i = 0; i < 4; i++) {
    h.before(
      (ctx: ToolCallHookContext) => {
        if (ctx.toolInput.table === "users") ctx.block("users table");
      },
      { name: `db-${i}`, tools: `db${i}_*` },
    );
  }
  h.before(() => {}, { name: "researchers-search", tools: TOOL_NAME, agents: "researcher" });
  return {
    id: "policy-by-hand",
    label: "the 50 rules written by hand as toolware hooks",
    hooks: 1,
    run: stack.call,
    check: ok,
  };
}

async function fromFile(): Promise<Subject> {
  const stack = toolwareStack({ hooks: 0 });
  const policy = await loadPolicy(parsePolicyText(policyYaml(), { file: "bench.policy.yaml" }));
  stack.hooks.use(policy);
  return {
    id: "policy-50",
    label: "a 50-rule YAML policy: `hooks.use(await loadPolicy(…))`",
    hooks: 1,
    run: stack.call,
    check: (value) => {
      ok(value);
      const entry = (value as ToolCallOutcome<string>).trace[0];
      if (entry?.hook !== "policy:researchers-search")
        throw new Error(`the deciding rule is not in the trace: ${JSON.stringify(entry)}`);
    },
  };
}

function ok(value: unknown): void {
  const outcome = value as ToolCallOutcome<string>;
  if (outcome.status !== "ok") throw new Error(`status ${outcome.status}: ${outcome.reason ?? ""}`);
  expectString(EXPECTED)(outcome.result);
}

const tool = { name: TOOL_NAME, tags: [] as string[], destructive: false };
// The same input object both sides read (the fixture's type has no index signature).
const args = input as unknown as Readonly<Record<string, unknown>>;

function celBare(): Subject {
  const env = new Environment({ homogeneousAggregateLiterals: false })
    .registerVariable("args", "map")
    .registerVariable("tool", "map")
    .registerVariable("agent", "string")
    .registerVariable("crew", "string")
    .registerVariable("caller", "string");
  const parsed = env.parse(CONDITION);
  return {
    id: "cel-bare",
    label: `a bare evaluation of the pre-compiled expression \`${CONDITION}\``,
    hooks: 0,
    run: () => parsed({ args: input, tool, agent: "researcher", crew: "", caller: "" }),
    check: (v) => {
      if (v !== true) throw new Error(`expected true, got ${String(v)}`);
    },
  };
}

function celPolicy(): Subject {
  const condition = compileCondition(CONDITION);
  return {
    id: "cel-policy",
    label:
      "the same condition as a policy evaluates it (`compileCondition(…).evaluate(call)`: arguments copied within the limits)",
    hooks: 0,
    run: () => condition.evaluate({ args, tool, agent: "researcher", crew: "", caller: "" }),
    check: (v) => {
      if (v !== true) throw new Error(`expected true, got ${String(v)}`);
    },
  };
}

const cases: Cases = {
  rules: async () => [direct, byHand(), await fromFile()],
  cel: () => [direct, celBare(), celPolicy()],
};

await runCase("policy", cases, { rounds: 30, roundMs: 30 }, [
  "rules: both stacks are the toolware suite's 0-hook stack (`invoke(tool, input, { agent, crew })`); the policy is parsed from YAML and loaded once; by hand, each rule is one hook with the same filters (40 by tool and agent, 5 by a tag predicate, 4 by glob checking an argument, 1 allowing the call). One rule decides the call in each.",
  "cel: the same expression, compiled once; the policy's path copies the arguments the expression names (within CEL_LIMITS) and checks the result is a boolean.",
]);
