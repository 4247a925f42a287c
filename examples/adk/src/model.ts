import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse } from "@google/adk";

type Content = NonNullable<LlmResponse["content"]>;
type Part = NonNullable<Content["parts"]>[number];

/**
 * ADK ships no test model: this subclass of its BaseLlm (the documented extension point) answers each
 * request with the next scripted parts, then with text, and keeps what each request showed the model.
 */
export class ScriptedLlm extends BaseLlm {
  readonly seen: Content[][] = [];
  readonly #turns: Part[][];

  constructor(turns: Part[][]) {
    super({ model: "scripted" });
    this.#turns = [...turns];
  }

  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.seen.push(structuredClone(request.contents));
    yield { content: { role: "model", parts: this.#turns.shift() ?? [{ text: "All done." }] } };
  }

  async connect(): Promise<BaseLlmConnection> {
    throw new Error("no live connection offline");
  }
}

/** The function responses a request showed the model, by call id. */
export function responses(contents: readonly Content[] = []): [string, unknown][] {
  return contents.flatMap((c) =>
    (c.parts ?? []).flatMap((p) =>
      p.functionResponse?.id ? [[p.functionResponse.id, p.functionResponse.response]] : [],
    ),
  ) as [string, unknown][];
}
