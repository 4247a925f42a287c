import { MockLanguageModelV3 } from "ai/test";

type Turn = readonly (readonly [id: string, tool: string, args: Record<string, unknown>])[] | string;
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** ai 6's own offline model, playing the turns in order: tool calls, or a final text. No network, no key. */
export function scriptedModel(turns: readonly Turn[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: turns.map((turn) =>
      typeof turn === "string"
        ? {
            content: [{ type: "text", text: turn }],
            finishReason: { unified: "stop", raw: "stop" },
            usage,
            warnings: [],
          }
        : {
            content: turn.map(([toolCallId, toolName, args]) => ({
              type: "tool-call",
              toolCallId,
              toolName,
              input: JSON.stringify(args),
            })),
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage,
            warnings: [],
          },
    ) as never,
  });
}

/** What the model read as each call's result, from its last request. */
export function resultsRead(model: MockLanguageModelV3): [string, unknown][] {
  const prompt = (model.doGenerateCalls.at(-1)?.prompt ?? []) as { role: string; content: unknown }[];
  return prompt.flatMap((message) =>
    message.role === "tool" && Array.isArray(message.content)
      ? (message.content as { toolCallId: string; output: { value: unknown } }[]).map(
          (part) => [part.toolCallId, part.output.value] as [string, unknown],
        )
      : [],
  );
}
