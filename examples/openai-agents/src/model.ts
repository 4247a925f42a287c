import { type Model, type ModelRequest, type ModelResponse, Usage } from "@openai/agents";

/** One turn of the offline model: the function calls it makes, or its final text. */
export type Turn = { calls: { name: string; args: unknown; callId: string }[] } | { text: string };

/** What a model reads on its next turn: the output of each function call, by call id. */
export function toolOutputs(request: ModelRequest | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(request?.input)) return out;
  for (const item of request.input) {
    if (item.type !== "function_call_result") continue;
    const o = item.output as { type?: string; text?: string } | string;
    out[item.callId] = typeof o === "string" ? o : (o.text ?? JSON.stringify(o));
  }
  return out;
}

/** The SDK's Model interface, played from a script, so the example needs no network and no key. */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #turns: Turn[];

  constructor(turns: Turn[]) {
    this.#turns = [...turns];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.#turns.shift() ?? { text: "done" };
    const output =
      "text" in turn
        ? [
            {
              type: "message" as const,
              role: "assistant" as const,
              status: "completed" as const,
              content: [{ type: "output_text" as const, text: turn.text }],
            },
          ]
        : turn.calls.map((c) => ({
            type: "function_call" as const,
            callId: c.callId,
            name: c.name,
            arguments: JSON.stringify(c.args),
            status: "completed" as const,
          }));
    return { usage: new Usage(), output };
  }

  // biome-ignore lint/correctness/useYield: the example never streams.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("the scripted model does not stream");
  }
}
