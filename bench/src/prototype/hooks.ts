import {
  Call,
  NO_TRACE,
  nextId,
  type ProtoChain,
  type ProtoHook,
  type ProtoOutcome,
  type ProtoTool,
  protoChain,
} from "./engine.js";

// The prototype's invoke: argument checks, the chain of the last tool one comparison away, and a call
// without hooks that builds no call state (the tool's own `.then` builds the outcome).

/** A registry of one chain per tool, with the one-entry cache of the last tool in front of its map. */
export class ProtoHooks {
  readonly #chains = new WeakMap<ProtoTool, ProtoChain>();
  #lastTool: ProtoTool | undefined;
  #lastChain: ProtoChain | undefined;

  constructor(
    readonly hooks: readonly ProtoHook[],
    readonly composer: "koa" | "own" = "koa",
  ) {}

  #chainFor(tool: ProtoTool): ProtoChain {
    if (tool === this.#lastTool) return this.#lastChain as ProtoChain;
    let chain = this.#chains.get(tool);
    if (chain === undefined) {
      chain = protoChain(this.hooks, this.composer);
      this.#chains.set(tool, chain);
    }
    this.#lastTool = tool;
    this.#lastChain = chain;
    return chain;
  }

  invoke(tool: ProtoTool, input: object): Promise<ProtoOutcome> {
    if (tool === null || typeof tool !== "object" || typeof tool.execute !== "function") {
      return Promise.reject(new TypeError("not a tool"));
    }
    const proto = Object.getPrototypeOf(input);
    if (proto !== Object.prototype && proto !== null) return Promise.reject(new TypeError("not a plain input"));
    const chain = this.#chainFor(tool);
    const callId = nextId();
    if (chain.empty) {
      // No context at all: the tool's own `.then` builds the outcome, with the one shared empty trace.
      const name = tool.name;
      return (tool.execute(input as never, { callId }) as Promise<unknown>).then(
        (raw) => ({
          status: "ok" as const,
          result: typeof raw === "string" ? raw : JSON.stringify(raw),
          raw,
          reason: undefined,
          error: undefined,
          trace: NO_TRACE,
          callId,
          toolName: name,
        }),
        (error: unknown) => ({
          status: "error" as const,
          result: "tool failed",
          raw: undefined,
          reason: undefined,
          error,
          trace: NO_TRACE,
          callId,
          toolName: name,
        }),
      );
    }
    const r = chain.run(new Call(tool, input, callId));
    return r instanceof Promise ? r : Promise.resolve(r);
  }
}
