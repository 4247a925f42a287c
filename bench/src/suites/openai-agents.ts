import {
  Agent,
  defineToolInputGuardrail,
  defineToolOutputGuardrail,
  type FunctionCallItem,
  invokeFunctionTool,
  RunContext,
  runToolInputGuardrails,
  runToolOutputGuardrails,
  setTracingDisabled,
  ToolGuardrailFunctionOutputFactory,
  tool,
} from "@openai/agents";
import { z } from "zod";
import { EXPECTED, HOOK_COUNTS, input, TOOL_NAME, trivialTool } from "../fixtures.js";
import { type Cases, countsHooks, expectString, runCase, type Subject } from "../harness.js";

// OpenAI Agents JS with N tool guardrails (half input, half output; an odd one is an input guardrail),
// each allowing the call. Public path, in the order the runner uses: runToolInputGuardrails →
// invokeFunctionTool → runToolOutputGuardrails (what runner/toolExecution does around a function tool,
// minus its spans, approvals and redaction).

setTracingDisabled(true);

const agent = new Agent({ name: "bench" });
const runContext = new RunContext({});
const toolCall: FunctionCallItem = {
  type: "function_call",
  callId: "call_1",
  name: TOOL_NAME,
  arguments: JSON.stringify(input),
};

function guardedTool(n: number, probe?: () => void) {
  const inputGuardrails = [];
  const outputGuardrails = [];
  for (let i = 0; i < n; i++) {
    const run = async () => {
      probe?.();
      return ToolGuardrailFunctionOutputFactory.allow();
    };
    if (i % 2 === 0) inputGuardrails.push(defineToolInputGuardrail({ name: `allow_in_${i}`, run }));
    else outputGuardrails.push(defineToolOutputGuardrail({ name: `allow_out_${i}`, run }));
  }
  const benchTool = tool({
    name: TOOL_NAME,
    description: "the trivial benchmark tool",
    parameters: z.object({ query: z.string() }),
    execute: (args) => trivialTool(args),
    inputGuardrails,
    outputGuardrails,
  });
  return async (): Promise<unknown> => {
    const decision = await runToolInputGuardrails({
      guardrails: benchTool.inputGuardrails,
      context: runContext,
      agent,
      toolCall,
    });
    if (decision.type === "reject") return decision.message;
    const output = await invokeFunctionTool({
      tool: benchTool,
      runContext,
      input: toolCall.arguments,
      details: { toolCall },
    });
    return runToolOutputGuardrails({
      guardrails: benchTool.outputGuardrails,
      context: runContext,
      agent,
      toolCall,
      toolOutput: output,
    });
  };
}

const check = expectString(EXPECTED);
const direct: Subject = {
  id: "direct",
  label: "direct `await tool(input)`",
  hooks: 0,
  run: () => trivialTool(input),
  check,
};

function guarded(n: number): Subject {
  return {
    id: `openai-agents-${n}`,
    label: `OpenAI Agents, ${Math.ceil(n / 2)} input + ${Math.floor(n / 2)} output tool guardrails`,
    hooks: n,
    run: guardedTool(n),
    check,
    verify: countsHooks((probe) => guardedTool(n, probe), n),
  };
}

const cases: Cases = Object.fromEntries([0, ...HOOK_COUNTS].map((n) => [String(n), () => [direct, guarded(n)]]));

await runCase("openai-agents", cases, { rounds: 30, roundMs: 30 }, [
  "@openai/agents 0.20.0, tracing disabled. Path: `runToolInputGuardrails` → `invokeFunctionTool` → `runToolOutputGuardrails` (all exported), on `tool({ parameters: zod, inputGuardrails, outputGuardrails })`; every call parses the JSON arguments and validates them with zod. Guardrails are async (their type requires a promise).",
]);
