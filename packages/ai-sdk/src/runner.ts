import {
  bindCall,
  type CallBindings,
  defineTool,
  notifyOutcome,
  type PerCallBindings,
  readArguments,
  refusedOutcome,
  type Tool,
  type ToolCallOutcome,
  type ToolHooks,
  ToolwareError,
} from "@toolware/core";
import { FRAMEWORK, makeCall, onDeferral, type SdkCallOptions } from "./call.js";
import { copyOf } from "./copy.js";
import { type Mapped, toSdkValue } from "./outcome.js";
import type { AiSdkCallContext, AiSdkToolInfo, GuardToolsOptions } from "./types.js";

/** Runs the SDK tool's own `execute` with the (possibly rewritten) input and toolware's signal. */
type Gate = (input: object, signal: AbortSignal) => Promise<unknown>;
type SdkExecute = (input: unknown, options: Record<string, unknown>) => unknown;

/** A call whose chain started in the SDK's approval phase and waits for the SDK's `execute`. */
interface Parked {
  readonly outcome: Promise<ToolCallOutcome>;
  /** Lets the chain, parked where the tool runs, go on; undefined when it already settled. */
  readonly release: ((gate: Gate) => void) | undefined;
  readonly controller: AbortController;
}

/** How the approval phase left a call. */
export type EarlyResult =
  | { readonly kind: "go" }
  | { readonly kind: "deferred" }
  | { readonly kind: "blocked"; readonly outcome: ToolCallOutcome };

const MAX_CHANGED = 10_000;

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value !== null &&
    typeof value === "object" &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

// A streaming tool: the chain sees its final value, as the SDK's own result would be.
async function lastValue(values: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of values) last = value;
  return last;
}

/** Runs the calls of one guarded SDK tool through the chain. */
export class ToolRunner {
  readonly tool: Tool<object, unknown>;
  readonly #gates = new Map<string, Gate>();
  #slotId: string | undefined = undefined;
  #slotGate: Gate | undefined = undefined;
  readonly #parked = new Map<string, Parked>();
  readonly #changed = new Set<string>();

  constructor(
    readonly name: string,
    readonly execute: SdkExecute,
    readonly hooks: ToolHooks,
    readonly options: GuardToolsOptions,
    meta: { description?: string | undefined } & AiSdkToolInfo,
  ) {
    const { description, tags, destructive } = meta;
    this.tool = defineTool<object, unknown>({
      name,
      ...(description === undefined ? {} : { description }),
      ...(tags === undefined ? {} : { tags }),
      ...(destructive === undefined ? {} : { destructive }),
      execute: (input, { signal, callId }) => {
        const gate = this.#gateOf(callId);
        if (gate === undefined) {
          return Promise.reject(
            new ToolwareError("TOOLWARE_CALL_NOT_FOUND", `no AI SDK call ${callId} of tool ${name} is running`),
          );
        }
        return gate(input, signal);
      },
    });
  }

  /** True when hooks changed the result of this call (its value is not the tool's own). */
  changed(toolCallId: string): boolean {
    return this.#changed.has(toolCallId);
  }

  /** Drops a call the SDK will not execute (an automatic denial). */
  forget(toolCallId: string): void {
    this.#parked.delete(toolCallId);
  }

  /**
   * The SDK's `execute`: continues a parked call, or runs the whole chain now. Not an `async`
   * function: a call that needs no approval phase pays one reaction here, not three.
   */
  run(input: unknown, options: SdkCallOptions & Record<string, unknown>): Promise<unknown> {
    try {
      const id = options.toolCallId;
      // Empty unless approvals are in play: the size check spares most calls the lookup.
      const parked = this.#parked.size === 0 ? undefined : this.#parked.get(id);
      if (parked !== undefined) return this.#resume(parked, id, options);
      const call = makeCall(this.name, input, options, "execute");
      return this.#start(call, input, options.abortSignal, this.#sdkGate(options), (outcome) => {
        this.#report(outcome, call);
        return this.#mapped(outcome, id).value;
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async #resume(parked: Parked, id: string, options: SdkCallOptions & Record<string, unknown>): Promise<unknown> {
    this.#parked.delete(id);
    const signal = options.abortSignal;
    if (signal instanceof AbortSignal) {
      if (signal.aborted) parked.controller.abort(signal.reason);
      else signal.addEventListener("abort", () => parked.controller.abort(signal.reason), { once: true });
    }
    parked.release?.(this.#sdkGate(options));
    return this.#mapped(await parked.outcome, id).value;
  }

  /**
   * The SDK's approval phase: starts the chain and waits until it reaches the tool (the chain then
   * waits for `execute`), settles, or hands the call to the user.
   */
  async early(input: unknown, options: SdkCallOptions): Promise<EarlyResult> {
    const id = options.toolCallId;
    const call = makeCall(this.name, input, options, "approval");
    let deferred = false;
    onDeferral(call, () => {
      deferred = true;
    });
    let reached = (): void => {};
    const atTool = new Promise<"tool">((resolve) => {
      reached = () => resolve("tool");
    });
    let release: (gate: Gate) => void = () => {};
    const runner = new Promise<Gate>((resolve) => {
      release = resolve;
    });
    const gate: Gate = (args, signal) => {
      reached();
      return runner.then((g) => g(args, signal));
    };
    const controller = new AbortController();
    const outcome = this.#start(call, input, controller.signal, gate, (o) => {
      if (!deferred) this.#report(o, call);
      return o;
    });
    const first = await Promise.race([atTool, outcome.then(() => "settled" as const)]);
    if (first === "tool") {
      this.#parked.set(id, { outcome, release, controller });
      return { kind: "go" };
    }
    const settled = await outcome;
    if (deferred) return { kind: "deferred" };
    this.#parked.set(id, { outcome, release: undefined, controller });
    return settled.status === "blocked" ? { kind: "blocked", outcome: settled } : { kind: "go" };
  }

  // Not an `async` function: the tool's own promise goes to the chain as it is (one reaction, not three);
  // a tool that throws at once still fails as a rejection.
  #sdkGate(options: Record<string, unknown>): Gate {
    return (input, signal) => {
      try {
        const result = this.execute(input, { ...options, abortSignal: signal });
        if (isAsyncIterable(result)) return lastValue(result);
        return result instanceof Promise ? result : Promise.resolve(result);
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }

  /** Runs the chain of `call`; `finish` gets its outcome (in the same reaction that closes the gate). */
  #start<T>(
    call: AiSdkCallContext,
    input: unknown,
    signal: AbortSignal | undefined,
    gate: Gate,
    finish: (outcome: ToolCallOutcome) => T,
  ): Promise<T> {
    const id = call.toolCallId;
    let bound: PerCallBindings;
    let args: object;
    try {
      // Fails closed: arguments that are not an object (TOOLWARE_INVALID_INPUT), a throwing or ill-typed
      // bind (TOOLWARE_BIND_FAILED / _INVALID_BINDINGS) never run the tool.
      args = readArguments(this.name, input);
      bound = bindCall(this.options.bind, call, "ai-sdk");
    } catch (error) {
      const failed = this.#failed(call, error);
      return Promise.resolve().then(() => finish(failed));
    }
    // One shape for every call (not a spread of `bound`), so reading the bindings stays monomorphic.
    const bindings: CallBindings = {
      agent: bound.agent,
      task: bound.task,
      crew: bound.crew,
      signal,
      callId: id,
      framework: { name: FRAMEWORK, context: call },
    };
    this.#openGate(id, gate);
    let pending: Promise<ToolCallOutcome>;
    try {
      pending = this.hooks.invoke(this.tool, copyOf(args) as object, bindings);
    } catch (error) {
      pending = Promise.reject(error);
    }
    // One reaction for both ends (not catch + finally): the gate goes when the call has settled.
    return pending.then(
      (outcome) => {
        this.#closeGate(id, gate);
        return finish(outcome);
      },
      (error: unknown) => {
        this.#closeGate(id, gate);
        return finish(this.#failed(call, error));
      },
    );
  }

  // The gate of the one call running (the usual case: the SDK runs a step's calls one after another
  // unless the model asked for several) sits in a slot; further ones in the map. An id is in one
  // place at most, and opening a gate for an id already open replaces it, as with the map alone.
  #openGate(id: string, gate: Gate): void {
    if (this.#slotId === id || (this.#slotId === undefined && !this.#gates.has(id))) {
      this.#slotId = id;
      this.#slotGate = gate;
    } else {
      this.#gates.set(id, gate);
    }
  }

  #gateOf(id: string): Gate | undefined {
    return id === this.#slotId ? this.#slotGate : this.#gates.get(id);
  }

  #closeGate(id: string, gate: Gate): void {
    if (id === this.#slotId) {
      if (this.#slotGate !== gate) return;
      this.#slotId = undefined;
      this.#slotGate = undefined;
    } else if (this.#gates.get(id) === gate) {
      this.#gates.delete(id);
    }
  }

  /** The outcome of a call that could not start (bad bindings, a throwing `bind`, a bad input). */
  #failed(call: AiSdkCallContext, error: unknown): ToolCallOutcome {
    return refusedOutcome(this.hooks, "ai-sdk", this.name, call.toolCallId, error);
  }

  #mapped(outcome: ToolCallOutcome, id: string): Mapped {
    const mapped = toSdkValue(outcome, this.tool);
    if (mapped.changed) {
      if (this.#changed.size >= MAX_CHANGED) this.#changed.delete(this.#changed.values().next().value as string);
      this.#changed.add(id);
    }
    return mapped;
  }

  #report(outcome: ToolCallOutcome, call: AiSdkCallContext): void {
    notifyOutcome(this.hooks, "ai-sdk.onOutcome", this.options.onOutcome, outcome, call);
  }
}
