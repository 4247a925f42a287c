// snippet: integrations-1.ts
import { type BeforeToolCallHookType, defineTool, ToolHooks, type ToolInput } from "@toolware/core";

// Validators you already have, in the shapes they usually come in.
const legacyCheck = (toolName: string, inputs: ToolInput): boolean =>
  !(toolName === "transfer_money" && Number(inputs.amount) > 1_000);
const listProblems = (inputs: ToolInput): string[] =>
  typeof inputs.iban === "string" && /^[A-Z]{2}\d{2}/.test(inputs.iban) ? [] : ["iban: not an IBAN"];
const policyService = {
  // An existing permission system behind the network (OPA, Cedar, your own): async, and possibly slow.
  decide: async (toolName: string, role: string | undefined) => ({
    allow: role !== "intern" || toolName !== "transfer_money",
    why: "interns cannot move money",
  }),
};

const hooks = new ToolHooks();

// A boolean validator: the seed's integration, with a reason instead of a bare `false`.
hooks.before(function legacyRules(ctx) {
  if (!legacyCheck(ctx.toolName, ctx.toolInput)) ctx.block(`${ctx.toolName} failed the legacy rules`);
});

// A validator that lists problems: the list becomes the reason the agent reads.
const problemsToReason =
  (validate: (input: ToolInput) => string[]): BeforeToolCallHookType =>
  (ctx) => {
    const problems = validate(ctx.toolInput);
    if (problems.length > 0) ctx.block(`invalid input for ${ctx.toolName}: ${problems.join("; ")}`);
  };
hooks.before(problemsToReason(listProblems), { name: "ibanCheck", tools: "transfer_money" });

// A remote decision: async, bounded. If it throws or times out, the call is blocked (fail closed).
hooks.before(
  async function policyDecision(ctx) {
    const { allow, why } = await policyService.decide(ctx.toolName, ctx.agent?.role);
    if (!allow) ctx.block(why);
  },
  { timeoutMs: 300 },
);

const transfer = defineTool({
  name: "transfer_money",
  execute: ({ amount, iban }: { amount: number; iban: string }) => `sent ${amount} to ${iban}`,
});
console.log((await hooks.invoke(transfer, { amount: 5_000, iban: "DE89370400440532013000" })).reason);
// transfer_money failed the legacy rules
console.log((await hooks.invoke(transfer, { amount: 50, iban: "12345" })).reason);
// invalid input for transfer_money: iban: not an IBAN
console.log((await hooks.invoke(transfer, { amount: 50, iban: "DE89370400440532013000" })).result);
// sent 50 to DE89370400440532013000
