// Scripted turns for the SDK's own mock models (ai 6 MockLanguageModelV3, ai 7 MockLanguageModelV4).

export interface ScriptedCall {
  readonly id: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
}

/** One model turn: tool calls, or a final text. */
export type Turn = readonly ScriptedCall[] | string;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** The `doGenerate` results of a script, in the shape both mock models take. */
export function generateResults(turns: readonly Turn[]) {
  return turns.map((turn) =>
    typeof turn === "string"
      ? {
          content: [{ type: "text" as const, text: turn }],
          finishReason: { unified: "stop" as const, raw: "stop" },
          usage,
          warnings: [],
        }
      : {
          content: turn.map((c) => ({
            type: "tool-call" as const,
            toolCallId: c.id,
            toolName: c.toolName,
            input: JSON.stringify(c.input),
          })),
          finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
          usage,
          warnings: [],
        },
  );
}

/** The `doStream` result of one turn. */
export function streamResult(turn: Turn) {
  const parts: Record<string, unknown>[] = [{ type: "stream-start", warnings: [] }];
  if (typeof turn === "string") {
    parts.push(
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: turn },
      { type: "text-end", id: "t" },
    );
  } else {
    for (const c of turn) {
      parts.push({ type: "tool-call", toolCallId: c.id, toolName: c.toolName, input: JSON.stringify(c.input) });
    }
  }
  parts.push({
    type: "finish",
    finishReason:
      typeof turn === "string" ? { unified: "stop", raw: "stop" } : { unified: "tool-calls", raw: "tool_calls" },
    usage,
  });
  return {
    stream: new ReadableStream({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/** The tool results (by call id) the model received in the prompt of one of its calls. */
export function toolResultsIn(prompt: unknown): Record<string, unknown> {
  const results: Record<string, unknown> = {};
  for (const message of prompt as { role: string; content: unknown }[]) {
    if (message.role !== "tool" || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; toolCallId: string; output: unknown }[]) {
      if (part.type === "tool-result") results[part.toolCallId] = part.output;
    }
  }
  return results;
}

/** Resolves after the current macrotask, so parallel calls get to start. */
export const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
