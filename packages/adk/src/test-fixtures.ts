import { BaseLlm, type BaseLlmConnection, type LlmRequest, type LlmResponse, LogLevel, setLogLevel } from "@google/adk";

// ADK logs every plugin registration at INFO: tests keep to errors.
setLogLevel(LogLevel.ERROR);

type Content = NonNullable<LlmResponse["content"]>;
type Part = NonNullable<Content["parts"]>[number];

/** One scripted turn: the parts the model answers, or a function of the request it got. */
export type Turn = Part[] | ((request: LlmRequest) => Part[]);

/**
 * ADK ships no test model: this subclass of ADK's own BaseLlm (the documented extension point)
 * answers each request with the next scripted turn, then with plain text, and keeps every request.
 */
export class ScriptedLlm extends BaseLlm {
  /** The contents of every request, copied as sent. */
  readonly requests: { contents: Content[] }[] = [];
  readonly #turns: Turn[];

  constructor(turns: Turn[]) {
    super({ model: "scripted" });
    this.#turns = [...turns];
  }

  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    // A copy: ADK keeps appending to the contents it sends.
    this.requests.push({ contents: structuredClone(request.contents) });
    const turn = this.#turns.shift();
    const parts = turn === undefined ? [{ text: "done" }] : typeof turn === "function" ? turn(request) : turn;
    yield { content: { role: "model", parts } };
  }

  async connect(): Promise<BaseLlmConnection> {
    throw new Error("ScriptedLlm has no live connection");
  }
}

/** A model part calling `name` with `args` under the call id `id`. */
export function call(name: string, args: unknown, id: string): Part {
  return { functionCall: { id, name, args: args as Record<string, unknown> } };
}

/** The function responses the model was sent in a request, by call id. */
export function responsesIn(contents: readonly Content[] | undefined): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const content of contents ?? []) {
    for (const part of content.parts ?? []) {
      const r = part.functionResponse;
      if (r?.id !== undefined) out.set(r.id, (r.response ?? {}) as Record<string, unknown>);
    }
  }
  return out;
}

type Event = { author?: string; content?: Content };

/** Runs one turn of `runner`'s session and returns its events. */
export async function turn(
  runner: { runAsync(params: { userId: string; sessionId: string; newMessage: Content }): AsyncGenerator<Event> },
  sessionId: string,
  message: Content | string,
): Promise<Event[]> {
  const newMessage = typeof message === "string" ? { role: "user", parts: [{ text: message }] } : message;
  const events: Event[] = [];
  for await (const event of runner.runAsync({ userId: "u", sessionId, newMessage })) events.push(event);
  return events;
}

/** The `adk_request_confirmation` calls among `events`. */
export function confirmationsIn(events: readonly Event[]): { id: string; args: Record<string, unknown> }[] {
  return events.flatMap((e) =>
    (e.content?.parts ?? [])
      .map((p) => p.functionCall)
      .filter((c) => c?.name === "adk_request_confirmation")
      .map((c) => ({ id: String(c?.id), args: (c?.args ?? {}) as Record<string, unknown> })),
  );
}

/** The user's answer to a confirmation request. */
export function answer(id: string, confirmed: boolean): Content {
  return {
    role: "user",
    parts: [{ functionResponse: { id, name: "adk_request_confirmation", response: { confirmed } } }],
  };
}
