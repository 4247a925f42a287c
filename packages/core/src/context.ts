import { nextCallId } from "./call-id.js";
import { blockCall, respondCall } from "./call-state.js";
import type { Agent, Crew, Task } from "./entities.js";
import { ToolwareError, ToolwareTypeError } from "./errors.js";
import { trackInput } from "./input-proxy.js";
import type { Outer } from "./middleware.js";
import { CallSignals, followCaller, NEVER_ABORTED } from "./signals.js";
import type { CallStatus, FrameworkCall, Tool, ToolCallState, ToolInput, TraceEntry } from "./types.js";

/**
 * Runs the tool once more (through the wrappers inside). A signal given here is
 * combined with the one the wrapper received: the tool aborts when either does.
 */
export type ExecuteTool = (signal?: AbortSignal) => Promise<unknown>;

/**
 * Wraps the tool's execution (retry, timeout): it may call `execute` zero or more
 * times. `signal` is what the tool would receive from here: the call's signal
 * combined with those of the wrappers outside.
 */
export type ExecutionWrapper = (
  execute: ExecuteTool,
  ctx: ToolCallHookContext,
  signal: AbortSignal,
) => Promise<unknown>;

/** Per-question options of `requestHumanInput`. */
export interface HumanInputOptions {
  /** Stop waiting when this aborts (the call's own signal always applies too). */
  signal?: AbortSignal;
  /** Give up after this many milliseconds (rejects with `HumanInputTimeoutError`); at most 2147483647, or `Infinity` for no limit. */
  timeoutMs?: number;
}

/** What `requestHumanInput` hands to the `ToolHooks`. @internal */
export type HumanInputFn = (
  ctx: ToolCallHookContext,
  prompt: string,
  defaultMessage: string | undefined,
  options: HumanInputOptions | undefined,
) => Promise<string>;

/** Call-wide services the context needs from its `ToolHooks`. @internal */
export interface CallServices {
  formatBlocked(toolName: string, reason: string | undefined): string;
  formatWithheld(toolName: string, reason: string): string;
  formatFailed(toolName: string, error: unknown): string;
  requestHumanInput: HumanInputFn;
  reportError(where: string, error: unknown): void;
}

/**
 * Everything a hook knows about one tool call. One instance per call, shared
 * by every hook of the chain.
 *
 * @example
 * ```ts
 * hooks.before((ctx) => {
 *   if (ctx.agent?.role === "junior_agent" && ctx.toolName === "delete_file") {
 *     ctx.block("junior agents cannot delete files");
 *   }
 * });
 * ```
 */
export class ToolCallHookContext<I extends object = ToolInput, O = unknown> {
  /** The tool's own name, as the agent asked for it. */
  readonly toolName: string;
  readonly tool: Tool<I, O>;
  readonly agent: Agent | undefined;
  readonly task: Task | undefined;
  readonly crew: Crew | undefined;
  /** The framework's id of the call when an adapter gave one (`bindings.callId`), else a fresh one; also passed to the tool. */
  readonly callId: string;
  /**
   * The calling framework's own context of this call (`bindings.framework`), `undefined` when the
   * call came from no adapter. Read it through the adapter's typed reader (e.g. `aiSdkCall(ctx)`).
   */
  readonly framework: FrameworkCall | undefined;
  /** The agent-facing result; `undefined` until the tool ran, was blocked or substituted. */
  toolResult: string | undefined = undefined;
  /** What the tool (or `respond`) returned; after-hooks never change it. */
  rawToolResult: O | undefined = undefined;
  /** The error the tool threw, when it did. */
  error: unknown = undefined;

  /** @internal */ _input: I;
  /** @internal */ _inputProxy: I | undefined = undefined;
  /** @internal */ _inputVersion = 0;
  /** @internal */ _state: ToolCallState | undefined = undefined;
  /** @internal the call's own signal, or the shared one that never aborts */ _signal: AbortSignal;
  /** @internal the call's own signal and what it follows, once it has either; released when it ends */ _signals:
    | CallSignals
    | undefined = undefined;
  /** @internal */ _status: CallStatus = "ok";
  /** @internal */ _reason: string | undefined = undefined;
  /** @internal block or respond happened: nothing further inside runs */ _settled = false;
  /** @internal */ _toolRan = false;
  /** @internal the call ended before any hook could run (input refused by an adapter or the tool's schema) */ _refused = false;
  /** @internal set once the outcome is built: late calls from abandoned hooks change nothing */ _finished = false;
  /** @internal the error of a failed hook that blocked the call */ _failure: unknown = undefined;
  /** @internal counts block()/respond() calls so a middleware's trace can tell its own decisions */ _decisions = 0;
  /** @internal */ _wrappers: ExecutionWrapper[] | undefined = undefined;
  /** @internal the middleware whose next() started the step running now: that step reports to it when done */ _outer:
    | Outer
    | undefined = undefined;
  /** @internal */ readonly _trace: TraceEntry[] = [];
  /** @internal the name the running hook gave its trace entry for this call (see traceAs) */ _traceAs:
    | string
    | undefined = undefined;
  /** @internal when the call started, for `call:end`; -1 when nobody listens to it */ _startedAt = -1;
  /** @internal */ readonly _services: CallServices;

  /** @internal */
  constructor(
    tool: Tool<I, O>,
    input: I,
    agent: Agent | undefined,
    task: Task | undefined,
    crew: Crew | undefined,
    signal: AbortSignal | undefined,
    callId: string | undefined,
    framework: FrameworkCall | undefined,
    services: CallServices,
  ) {
    this.tool = tool;
    this.toolName = tool.name;
    this._input = input;
    this.agent = agent;
    this.task = task;
    this.crew = crew;
    // The call's own signal follows the caller's: listeners of the hooks and the tool land on it,
    // never on a signal the caller shares between many calls.
    this._signal = signal === undefined || signal === NEVER_ABORTED ? NEVER_ABORTED : followCaller(this, signal);
    this._services = services;
    this.callId = callId ?? nextCallId();
    this.framework = framework;
  }

  /**
   * The input the tool will receive. Mutate it in place
   * (`ctx.toolInput.query = "…"`); the property itself cannot be reassigned.
   */
  get toolInput(): I {
    if (this._inputProxy === undefined) this._inputProxy = trackInput(this._input, this);
    return this._inputProxy;
  }

  /** Scratch space for hook-to-hook data of this call; see {@link ToolCallState}. */
  get state(): ToolCallState {
    if (this._state === undefined) this._state = {};
    return this._state;
  }

  /** Aborts when the caller cancels the call (or a linked signal aborts). */
  get signal(): AbortSignal {
    return this._signal;
  }

  /** How the call stands right now. */
  get status(): CallStatus {
    return this._status;
  }

  /** The block reason, once blocked with one. */
  get blockReason(): string | undefined {
    return this._status === "blocked" ? this._reason : undefined;
  }

  /** What the hooks that finished so far did (the outcome's trace, in completion order). */
  get trace(): readonly TraceEntry[] {
    return this._trace;
  }

  /** True once the tool has been started. */
  get toolRan(): boolean {
    return this._toolRan;
  }

  /**
   * Blocks the call: nothing inside the calling hook runs, nor the tool.
   * On the way out it withholds the tool's result.
   */
  block(reason?: string): void {
    // Once the call has ended nothing counts, not even a wrong argument.
    if (this._finished) return;
    if (reason !== undefined && typeof reason !== "string") {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_ARGUMENT",
        `ctx.block() takes a string reason, got ${reason === null ? "null" : typeof reason}`,
      );
    }
    blockCall(this, reason);
  }

  /**
   * Names the calling hook's trace entry for this call only, in place of its registered name: a hook that dispatches
   * to rules it cannot register one by one (a watched policy) names the rule that decided, and the outcome's trace,
   * the audit line and the OTel span show it. Call it from a before- or after-hook before it returns (or settles);
   * the next entry recorded takes the name. `explain()` keeps the registered names.
   *
   * @example
   * ```ts
   * hooks.before(function dispatch(ctx) { ctx.traceAs("policy:no-deletes"); ctx.block("no deletes"); });
   * ```
   */
  traceAs(name: string): void {
    if (this._finished) return;
    if (typeof name !== "string" || name.length === 0 || name.length > 200) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_ARGUMENT",
        `ctx.traceAs() takes a name of 1 to 200 characters, got ${typeof name === "string" ? `${name.length} characters` : typeof name}`,
      );
    }
    this._traceAs = name;
  }

  /**
   * Supplies the result without running the tool (or replaces the tool's
   * result on the way out). The value is formatted like a tool result.
   */
  respond(value: O): void {
    respondCall(this, value);
  }

  /** Asks a human through the `ToolHooks` instance's human-input provider. */
  requestHumanInput(prompt: string, defaultMessage?: string, options?: HumanInputOptions): Promise<string> {
    return this._services.requestHumanInput(this as unknown as ToolCallHookContext, prompt, defaultMessage, options);
  }

  /**
   * Reports a failure that must not change the call, such as an observer callback of a pack
   * that threw, where the `ToolHooks` reports failing event listeners: its `onListenerError`
   * option (default `console.error`), with `where` in place of the event name. Never throws.
   *
   * @example
   * ```ts
   * try { onAudit(entry); } catch (error) { ctx.reportError("audit.onAudit", error); }
   * ```
   */
  reportError(where: string, error: unknown): void {
    try {
      this._services.reportError(String(where), error);
    } catch {
      // Reporting is best effort: a reporter that cannot report must not break the hook that asked.
    }
  }

  /**
   * Makes the call's signal (the one the tool receives) abort when `signal` aborts too.
   * The link is dropped when the call ends, so a long-lived signal can be linked by every call.
   */
  linkSignal(signal: AbortSignal): void {
    if (!(signal instanceof AbortSignal)) {
      throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "ctx.linkSignal() takes an AbortSignal");
    }
    if (this._finished || signal === NEVER_ABORTED || signal === this._signal) return;
    ownSignals(this).follow(signal);
  }

  /** A signal that aborts when `outer` or `inner` does; unlinked when the call ends. @internal */
  _either(outer: AbortSignal, inner: AbortSignal): AbortSignal {
    if (this._finished) return inner;
    if (this._signals === undefined) this._signals = new CallSignals();
    return this._signals.either(outer, inner);
  }

  /**
   * Wraps the tool's execution, for hooks that re-run it (retry) or bound it
   * (timeout) without running the rest of the chain again. The first wrapper
   * added is the outermost.
   */
  wrapExecution(wrapper: ExecutionWrapper): void {
    if (this._toolRan)
      throw new ToolwareError("TOOLWARE_WRAP_TOO_LATE", "wrapExecution() must be called before the tool runs");
    if (this._wrappers === undefined) this._wrappers = [];
    this._wrappers.push(wrapper);
  }
}

// Not a private method: one would give every context a private brand to install as it is made.
function ownSignals(ctx: { _signals: CallSignals | undefined; _signal: AbortSignal }): CallSignals {
  if (ctx._signals === undefined) ctx._signals = new CallSignals();
  ctx._signal = ctx._signals.own();
  return ctx._signals;
}

// Declared outside the class so TypeScript keeps `toolInput` readonly while
// JavaScript callers get an explanation instead of a bare "has only a getter".
Object.defineProperty(ToolCallHookContext.prototype, "toolInput", {
  ...Object.getOwnPropertyDescriptor(ToolCallHookContext.prototype, "toolInput"),
  set(): never {
    throw new ToolwareTypeError(
      "TOOLWARE_INPUT_REASSIGNED",
      "ctx.toolInput cannot be reassigned; mutate it in place instead (ctx.toolInput.key = value)",
    );
  },
});
