import { createOpenAI } from "@ai-sdk/openai";
import type { Agent, Task } from "@toolware/core";
import type { LanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { scriptedModel } from "./script.js";

/** The model the `--ai-sdk` option runs each task with, and the line that says which it is. */
export interface AiSdkModel {
  readonly scripted: boolean;
  readonly banner: string;
  modelFor(task: Task, agent: Agent): LanguageModel;
}

export const DEFAULT_MODEL = "gpt-4o-mini";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** The SDK's own mock model, answering each turn with the scripted model's next tool call. */
function mockModel(task: Task, agent: Agent): LanguageModel {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      // The scripted model reacts to what came back; here that is every tool result of the run so far.
      const observations = prompt.flatMap((m) =>
        m.role === "tool" ? m.content.flatMap((p) => (p.type === "tool-result" ? [JSON.stringify(p.output)] : [])) : [],
      );
      const next = scriptedModel(task, agent, observations);
      if (next === undefined) {
        return {
          content: [{ type: "text", text: `${agent.role}: done.` }],
          finishReason: { unified: "stop", raw: "stop" },
          usage,
          warnings: [],
        };
      }
      calls += 1;
      const toolCallId = `${agent.role}-${calls}`;
      return {
        content: [{ type: "tool-call", toolCallId, toolName: next.tool.name, input: JSON.stringify(next.input) }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      };
    },
  });
}

/**
 * A real model when OPENAI_API_KEY is set (TOOLWARE_DEMO_MODEL picks it), else the scripted one
 * behind the SDK's mock model. `env` is passed in so that tests never reach the network.
 */
export function pickModel(env: Readonly<Record<string, string | undefined>>): AiSdkModel {
  const apiKey = env.OPENAI_API_KEY;
  if (apiKey === undefined || apiKey === "") {
    return {
      scripted: true,
      banner: "AI SDK mode, still scripted: OPENAI_API_KEY is not set, so the SDK's mock model makes the crew's calls",
      modelFor: mockModel,
    };
  }
  const id = env.TOOLWARE_DEMO_MODEL || DEFAULT_MODEL;
  const model = createOpenAI({ apiKey })(id);
  return {
    scripted: false,
    banner: `AI SDK mode, a real model: OpenAI ${id} decides the crew's calls (TOOLWARE_DEMO_MODEL picks another)`,
    modelFor: () => model,
  };
}
