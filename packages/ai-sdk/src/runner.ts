import {
  bindCall,
  type CallBindings,
  defineTool,
  failedOutcome,
  notifyOutcome,
  type PerCallBindings,
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

/** Runs the calls of one guarded SDK tool through the chain. */
export class ToolRunner {
  readonly tool: Tool<object, unknown>;
  readonly #gates = new Map<string, Gate>();
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
        const gate = this.#gates.get(callId);
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

  /** The SDK's `execute`: continues a parked call, or runs the whole chain now. */
  async run(input: unknown, options: SdkCallOptions & Record<string, unknown>): Promise<unknown> {
    const id = options.toolCallId;
    const parked = this.#parked.get(id);
    let outcome: ToolCallOutcome;
    if (parked !== undefined) {
      this.#parked.delete(id);
      const signal = options.abortSignal;
      if (signal instanceof AbortSignal) {
        if (signal.aborted) parked.controller.abort(signal.reason);
        else signal.addEventListener("abort", () => parked.controller.abort(signal.reason), { once: true });
      }
      parked.release?.(this.#sdkGate(options));
      outcome = await parked.outcome;
    } else {
      const call = makeCall(this.name, input, options, "execute");
      outcome = await this.#start(call, input, options.abortSignal, this.#sdkGate(options));
      this.#report(outcome, call);
    }
    return this.#mapped(outcome, id).value;
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
    const outcome = this.#start(call, input, controller.signal, gate).then((o) => {
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

  #sdkGate(options: Record<string, unknown>): Gate {
    return async (input, signal) => {
      const result = this.execute(input, { ...options, abortSignal: signal });
      if (!isAsyncIterable(result)) return result;
      // A streaming tool: the chain sees its final value, as the SDK's own result would be.
      let last: unknown;
      for await (const value of result) last = value;
      return last;
    };
  }

  #start(
    call: AiSdkCallContext,
    input: unknown,
    signal: AbortSignal | undefined,
    gate: Gate,
  ): Promise<ToolCallOutcome> {
    const id = call.toolCallId;
    let bound: PerCallBindings;
    try {
      // Fails closed: a throwing or ill-typed bind never runs the tool (TOOLWARE_BIND_FAILED / _INVALID_BINDINGS).
      bound = bindCall(this.options.bind, call, "ai-sdk");
    } catch (error) {
      return Promise.resolve(this.#failed(call, error));
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
    this.#gates.set(id, gate);
    let pending: Promise<ToolCallOutcome>;
    try {
      pending = this.hooks.invoke(this.tool, copyOf(input) as object, bindings);
    } catch (error) {
      pending = Promise.reject(error);
    }
    // One reaction for both ends (not catch + finally): the gate goes when the call has settled.
    return pending.then(
      (outcome) => {
        this.#closeGate(id, gate);
        return outcome;
      },
      (error: unknown) => {
        this.#closeGate(id, gate);
        return this.#failed(call, error);
      },
    );
  }

  #closeGate(id: string, gate: Gate): void {
    if (this.#gates.get(id) === gate) this.#gates.delete(id);
  }

  /** The outcome of a call that could not start (bad bindings, a throwing `bind`, a bad input). */
  #failed(call: AiSdkCallContext, error: unknown): ToolCallOutcome {
    return failedOutcome(this.name, call.toolCallId, error);
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
