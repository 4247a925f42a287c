import type { Model, ModelRequest, ModelResponse } from "@openai/agents";
import { Usage } from "@openai/agents";

/**
 * One turn of the scripted model: the function calls it makes, or its final text. `rawArguments`,
 * when given, is sent as the call's arguments string as is (not JSON.stringify of `args`).
 */
export type Turn =
  | { calls: { name: string; args: unknown; callId: string; rawArguments?: string }[] }
  | { text: string };

/**
 * A Model (the SDK's interface) that plays a script: one turn per request, and records every
 * request so a test can read what the model saw on its next turn.
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  #turns: Turn[];

  constructor(turns: Turn[]) {
    this.#turns = [...turns];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.#turns.shift() ?? { text: "done" };
    if ("text" in turn) {
      return {
        usage: new Usage(),
        output: [
          {
            type: "message",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: turn.text }],
          },
        ],
      };
    }
    return {
      usage: new Usage(),
      output: turn.calls.map((c) => ({
        type: "function_call" as const,
        callId: c.callId,
        name: c.name,
        arguments: c.rawArguments ?? JSON.stringify(c.args),
        status: "completed" as const,
      })),
    };
  }

  // biome-ignore lint/correctness/useYield: the tests use getResponse only; streaming is not scripted.
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error("ScriptedModel does not stream");
  }

  /** The outputs of function calls the model received in its last request, by call id. */
  lastToolOutputs(): Record<string, unknown> {
    return toolOutputs(this.requests.at(-1));
  }
}

/** The function call outputs in one model request, by call id. */
export function toolOutputs(request: ModelRequest | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const input = request?.input;
  if (!Array.isArray(input)) return out;
  for (const item of input) {
    if (item.type === "function_call_result") {
      const o = item.output as unknown;
      const value =
        typeof o === "object" && o !== null && (o as { type?: string }).type === "text"
          ? (o as { text: string }).text
          : o;
      // Defined, not assigned: a call id such as "__proto__" stays an own key.
      Object.defineProperty(out, item.callId, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return out;
}
