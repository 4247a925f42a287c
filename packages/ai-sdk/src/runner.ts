import {
  bindCall,
  type CallBindings,
  defineTool,
  notifyOutcome,
  type PerCallBindings,
  type RefusedCall,
  readArguments,
  refusedOutcome,
  type Tool,
  type ToolCallOutcome,
  type ToolHooks,
  ToolwareError,
} from "@toolware/core";
import { FRAMEWORK, makeCall, onDeferral, type SdkCallOptions } from "./call.js";
import { copyOf } from "./copy.js";
import { type Gate, Gates, isAsyncIterable, lastValue } from "./gates.js";
import { findApprovalResponse, UNBOUND } from "./history.js";
import { type Mapped, toSdkValue } from "./outcome.js";
import type { AiSdkApprovalResponse, AiSdkCallContext, AiSdkToolInfo, GuardToolsOptions } from "./types.js";
import { type Started, Waits } from "./waits.js";

type SdkExecute = (input: unknown, options: Record<string, unknown>) => unknown;

/** A call whose chain started in the SDK's approval phase and waits for the SDK's `execute`. */
export interface Parked {
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
// Outside the approval phase no question goes to the SDK's flow.
const noQuestion = (): Promise<undefined> => Promise.resolve(undefined);

/** Runs the calls of one guarded SDK tool through the chain. */
export class ToolRunner {
  readonly tool: Tool<object, unknown>;
  readonly #gates = new Gates();
  readonly #parked = new Map<string, Parked>();
  readonly #changed = new Set<string>();
  readonly #waits = new Waits();

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
        const gate = this.#gates.of(callId);
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

  /** Ends the question of a call with a denial: the SDK resumed it with no answer bound to it. */
  withdraw(toolCallId: string, reason: string): void {
    this.#waits.withdraw(toolCallId, reason);
  }

  /**
   * The SDK's `execute`: continues a parked or waiting call, or runs the whole chain now. Not an
   * `async` function: a call that needs no approval phase pays one reaction here, not three.
   */
  run(input: unknown, options: SdkCallOptions & Record<string, unknown>): Promise<unknown> {
    try {
      const id = options.toolCallId;
      // Empty unless approvals are in play: the size checks spare most calls the lookups.
      const parked = this.#parked.size === 0 ? undefined : this.#parked.get(id);
      if (parked !== undefined) return this.#resume(parked, id, options);
      let refused: string | undefined;
      if (this.#waits.size !== 0) {
        // ai 6: the SDK executes an answered call without asking the approval phase again.
        const answered = this.#waits.answer(this.name, input, options);
        if (answered.kind === "answered") return this.#resume(answered.started, id, options);
        // A question for this id waits, and no answer bound to this call came with it.
        if (answered.kind !== "none") refused = UNBOUND(this.name, id);
      }
      const response = refused === undefined ? this.#answerFor(input, options) : undefined;
      const call = makeCall(this.name, input, options, "execute", response);
      if (response !== undefined || refused !== undefined) {
        onDeferral(call, { ask: noQuestion, take: (r) => this.#waits.ledger.take(r.approvalId), refused });
      }
      return this.#start(call, input, options.abortSignal, this.#sdkGate(options), (outcome) => {
        this.#report(outcome, call);
        return this.#mapped(outcome, id).value;
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Whether the messages hold the user's answer to this very call, not used yet (ai 6's resume). */
  answered(input: unknown, options: SdkCallOptions): boolean {
    return this.#answerFor(input, options) !== undefined;
  }

  #answerFor(input: unknown, options: SdkCallOptions): AiSdkApprovalResponse | undefined {
    const response = findApprovalResponse(options.messages, {
      toolCallId: options.toolCallId,
      toolName: this.name,
      input,
    });
    return response === undefined || this.#waits.ledger.taken(response.approvalId) ? undefined : response;
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
   * The SDK's approval phase: starts the chain (or hands the user's answer to the chain that asked
   * for it) and waits until it reaches the tool (the chain then waits for `execute`), settles, or
   * hands the call to the user (the chain then waits for the answer).
   */
  async early(input: unknown, options: SdkCallOptions): Promise<EarlyResult> {
    const id = options.toolCallId;
    let trusted = true;
    if (this.#waits.size !== 0) {
      const answered = this.#waits.answer(this.name, input, options);
      if (answered.kind === "waiting") return { kind: "deferred" };
      if (answered.kind === "answered") return this.#settle(id, answered.started, false);
      trusted = answered.kind === "none";
    }
    const call = makeCall(this.name, input, options, "approval", trusted ? this.#answerFor(input, options) : undefined);
    const controller = new AbortController();
    const started = this.#begin(call, input, controller);
    return this.#settle(id, started, true);
  }

  async #settle(id: string, started: Started, canAsk: boolean): Promise<EarlyResult> {
    const racers: Promise<"tool" | "asked" | "settled">[] = [started.atTool, started.outcome.then(() => "settled")];
    if (canAsk) racers.push(started.asked);
    const first = await Promise.race(racers);
    if (first === "asked") return { kind: "deferred" };
    if (first === "tool") {
      this.#parked.set(id, { outcome: started.outcome, release: started.release, controller: started.controller });
      return { kind: "go" };
    }
    const settled = await started.outcome;
    this.#parked.set(id, { outcome: started.outcome, release: undefined, controller: started.controller });
    return settled.status === "blocked" ? { kind: "blocked", outcome: settled } : { kind: "go" };
  }

  /** Starts the chain of `call`: it stops where the tool would run until `release` hands it the SDK's `execute`. */
  #begin(call: AiSdkCallContext, input: unknown, controller: AbortController): Started {
    const id = call.toolCallId;
    let reached = (): void => {};
    const atTool = new Promise<"tool">((resolve) => {
      reached = () => resolve("tool");
    });
    let release: (gate: Gate) => void = () => {};
    const sdk = new Promise<Gate>((resolve) => {
      release = resolve;
    });
    const parkedGate: Gate = (args, s) => {
      reached();
      return sdk.then((g) => g(args, s));
    };
    let asked: (value: "asked") => void = () => {};
    const started: Started = {
      outcome: undefined as unknown as Promise<ToolCallOutcome>,
      atTool,
      asked: new Promise<"asked">((resolve) => {
        asked = resolve;
      }),
      release,
      controller,
    };
    onDeferral(call, {
      ask: () => {
        const answer = this.#waits.wait(id, input, started);
        asked("asked");
        return answer;
      },
      take: (response) => this.#waits.ledger.take(response.approvalId),
    });
    (started as { outcome: Promise<ToolCallOutcome> }).outcome = this.#start(
      call,
      input,
      controller.signal,
      parkedGate,
      (outcome) => {
        this.#waits.ended(id, started);
        this.#report(outcome, call);
        return outcome;
      },
    );
    return started;
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
      // The call never reached the chain: the ToolHooks' listeners (the audit among them) hear of it here.
      const failed = this.#failed(call, error, { input });
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
    this.#gates.open(id, gate);
    let pending: Promise<ToolCallOutcome>;
    try {
      pending = this.hooks.invoke(this.tool, copyOf(args) as object, bindings);
    } catch (error) {
      pending = Promise.reject(error);
    }
    // One reaction for both ends (not catch + finally): the gate goes when the call has settled.
    return pending.then(
      (outcome) => {
        this.#gates.close(id, gate);
        return finish(outcome);
      },
      (error: unknown) => {
        this.#gates.close(id, gate);
        return finish(this.#failed(call, error));
      },
    );
  }

  /** The outcome of a call that could not start (bad bindings, a throwing `bind`, a bad input). */
  #failed(call: AiSdkCallContext, error: unknown, refused?: RefusedCall): ToolCallOutcome {
    return refusedOutcome(this.hooks, "ai-sdk", this.name, call.toolCallId, error, refused);
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
