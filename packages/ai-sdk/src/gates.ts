/** Runs the SDK tool's own `execute` with the (possibly rewritten) input and toolware's signal. */
export type Gate = (input: object, signal: AbortSignal) => Promise<unknown>;

/** Whether a tool's result is a stream of values. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

/** A streaming tool: the chain sees its final value, as the SDK's own result would be. */
export async function lastValue(values: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of values) last = value;
  return last;
}

/** The gates of one tool's running calls, by call id: where each chain's tool call goes. @internal */
export class Gates {
  readonly #more = new Map<string, Gate>();
  #id: string | undefined = undefined;
  #gate: Gate | undefined = undefined;

  // The gate of the one call running (the usual case: the SDK runs a step's calls one after another
  // unless the model asked for several) sits in a slot; further ones in the map. An id is in one
  // place at most, and opening a gate for an id already open replaces it, as with the map alone.
  open(id: string, gate: Gate): void {
    if (this.#id === id || (this.#id === undefined && !this.#more.has(id))) {
      this.#id = id;
      this.#gate = gate;
    } else {
      this.#more.set(id, gate);
    }
  }

  of(id: string): Gate | undefined {
    return id === this.#id ? this.#gate : this.#more.get(id);
  }

  close(id: string, gate: Gate): void {
    if (id === this.#id) {
      if (this.#gate !== gate) return;
      this.#id = undefined;
      this.#gate = undefined;
    } else if (this.#more.get(id) === gate) {
      this.#more.delete(id);
    }
  }
}
