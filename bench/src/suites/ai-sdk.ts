import { guardTools } from "@toolware/ai-sdk";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { EXPECTED, TOOL_NAME, trivialTool } from "../fixtures.js";
import { type Cases, runCase } from "../harness.js";
import { toolwareStack } from "../toolware-stack.js";

// What guarding costs in a real agent loop: the AI SDK's own generateText with its mock model, which
// calls the tool in every step, with and without guardTools and the 10-hook stack around every call.

/** Tool calls per loop: the model calls the tool in each of these steps, then answers. */
const TOOL_STEPS = 4;
const FINAL = "done";

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

// The model reads how many tool results the prompt holds: a tool call until there are TOOL_STEPS, then text.
function mockModel(): MockLanguageModelV3 {
  let ids = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      // The mock keeps every call's options: emptied so that memory stays flat over millions of steps.
      model.doGenerateCalls.length = 0;
      const results = prompt.filter((m) => m.role === "tool").length;
      if (results >= TOOL_STEPS) {
        return {
          content: [{ type: "text", text: FINAL }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      }
      return {
        content: [
          { type: "tool-call", toolCallId: `c${ids++}`, toolName: TOOL_NAME, input: JSON.stringify({ query: "q" }) },
        ],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
  });
  return model;
}

function sdkTool() {
  return tool({ description: "returns its query", inputSchema: z.object({ query: z.string() }), execute: trivialTool });
}

function loop(tools: Record<string, ReturnType<typeof sdkTool>>): () => Promise<unknown> {
  const model = mockModel();
  return () => generateText({ model, tools, prompt: "go", stopWhen: stepCountIs(TOOL_STEPS + 1) });
}

function guarded(probe?: () => void): () => Promise<unknown> {
  const stack = toolwareStack({ hooks: 10, ...(probe === undefined ? {} : { probe }) });
  const tools = guardTools(stack.hooks, { [TOOL_NAME]: sdkTool() }, { bind: () => stack.bindings });
  return loop(tools);
}

// Every step ran the tool and handed its result back: the last step's text, and TOOL_STEPS tool results.
function checkLoop(value: unknown): void {
  const result = value as { text: string; steps: { toolResults: { output: unknown }[] }[] };
  const outputs = result.steps.flatMap((s) => s.toolResults.map((r) => r.output));
  if (result.text !== FINAL || outputs.length !== TOOL_STEPS || outputs.some((o) => o !== EXPECTED)) {
    throw new Error(`unexpected loop result: ${result.text}, ${JSON.stringify(outputs)}`);
  }
}

const cases: Cases = {
  loop: () => [
    {
      id: "ai-sdk-loop",
      label: `AI SDK 6 generateText, ${TOOL_STEPS} tool steps + 1 answer, mock model, tools unguarded`,
      hooks: 0,
      run: loop({ [TOOL_NAME]: sdkTool() }),
      check: checkLoop,
    },
    {
      id: "ai-sdk-loop-guarded",
      label: `the same loop, guardTools with 10 hooks (4 before, 3 after, 3 middleware) on every call`,
      hooks: 10 * TOOL_STEPS,
      run: guarded(),
      check: checkLoop,
      verify: async () => {
        let runs = 0;
        await guarded(() => {
          runs++;
        })();
        if (runs !== 10 * TOOL_STEPS) throw new Error(`expected ${10 * TOOL_STEPS} hook runs, ${runs} ran`);
      },
    },
  ],
};

// A loop is ~0.5 ms, so mitata's least (8 samples of 4 loops) already takes ~16-35 ms: short rounds,
// and many of them, pair the two subjects within tens of milliseconds of each other. The ratio is the
// median of the per-round ratios; on a loaded machine single rounds move by ±10-30 %, so 24 rounds left
// the median itself moving by a tenth from run to run, far more than the target's 3 %.
await runCase("ai-sdk", cases, { rounds: 80, roundMs: 30 }, [
  `ai 6 \`generateText\` with its \`MockLanguageModelV3\` (from \`ai/test\`): the model calls the tool (zod input schema) in each of ${TOOL_STEPS} steps, then answers; \`stopWhen: stepCountIs(${TOOL_STEPS + 1})\`. The reference of this case is the unguarded loop.`,
  "Guarded: `guardTools(hooks, tools, { bind: () => ({ agent, crew }) })` over the toolware suite's mixed 10-hook stack (global, crew and agent layers, name filters), so every tool call runs 10 hooks.",
]);
