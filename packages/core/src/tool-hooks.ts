import { askHuman } from "./ask-human.js";
import { runBare } from "./bare-call.js";
import { type CallBindings, type ExplainQuery, readBindings } from "./call-args.js";
import { nextCallId } from "./call-id.js";
import { checkExplainQuery, checkInput } from "./call-input.js";
import { closeCall, failBeforeTool, finishCall } from "./call-state.js";
import type { Chain } from "./chain.js";
import { ChainCache } from "./chain-cache.js";
import { type CallServices, ToolCallHookContext } from "./context.js";
import { ToolwareTypeError } from "./errors.js";
import type { ToolHooksEvents } from "./events.js";
import type { HumanInputProvider } from "./human-input.js";
import { type Checked, checkInputSchema } from "./input-schema.js";
import { showValue } from "./keys.js";
import { claimDepth, claimPending, startNestedCall } from "./nesting.js";
import { resolveOptions, type ToolHooksOptions } from "./options.js";
import { HookRegistry } from "./registry.js";
import type { Runtime, RuntimeHook } from "./runtime.js";
import { safeInput } from "./safe-input.js";
import { NEVER_ABORTED } from "./signals.js";
import { assertTool } from "./tool.js";
import type { HookInfo, Tool, ToolCallOutcome, ToolInputSchema } from "./types.js";
import { type WrappedTool, wrapTool } from "./wrap.js";

// The call whose chain is running synchronously right now (its context; its depth for a call that has
// none): a call started meanwhile nests in it.
let running: ToolCallHookContext | number | undefined;

// Every key its own property: reading a key it lacked would find one put on Object.prototype.
const NO_BINDINGS: CallBindings = Object.freeze({
  agent: undefined,
  task: undefined,
  crew: undefined,
  signal: undefined,
  callId: undefined,
  framework: undefined,
});

/**
 * A toolware app: its own hooks are the global layer of every call it runs.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks();
 * hooks.before((ctx) => ctx.toolName !== "delete_file");
 * hooks.after((ctx) => ctx.toolResult?.replaceAll(/sk-\w+/g, "[REDACTED]"));
 * const outcome = await hooks.invoke(searchTool, { query: "toolware" });
 * ```
 */
export class ToolHooks extends HookRegistry<ToolHooksEvents> {
  readonly #chains: ChainCache;
  readonly #services: CallServices;
  readonly #onListenerError: ((event: string, error: unknown) => void) | undefined;
  #humanInput: HumanInputProvider;
  // Registrations whose ignored return value was reported already.
  readonly #ignoredReturns = new WeakSet<HookInfo>();

  constructor(options: ToolHooksOptions = {}) {
    super("global");
    const resolved = resolveOptions(options, (where, error) => this._reportListenerError(where, error));
    this.#humanInput = resolved.humanInput;
    this.#onListenerError = resolved.onListenerError;
    const runtime: Runtime = {
      timing: resolved.timing,
      hookFailed: (ctx, hook: RuntimeHook, phase, error) =>
        this._emit("hook:error", { ctx, hook: hook.info, phase, error, policy: hook.policy }),
      ignoredReturn: (ctx, hook: RuntimeHook, value) => {
        if (this.#ignoredReturns.has(hook.info)) return;
        this.#ignoredReturns.add(hook.info);
        this._emit("hook:ignored-return", { ctx, hook: hook.info, value });
      },
    };
    this.#chains = new ChainCache(runtime, resolved.policy);
    this.#services = {
      formatBlocked: resolved.messages.blocked,
      formatWithheld: resolved.messages.withheld,
      formatFailed: resolved.messages.failed,
      requestHumanInput: (ctx, prompt, defaultMessage, options) =>
        askHuman(this.#humanInput, ctx, prompt, defaultMessage, options),
      reportError: (where, error) => this._reportListenerError(where, error),
    };
  }

  /** The provider behind `ctx.requestHumanInput`. */
  get humanInput(): HumanInputProvider {
    return this.#humanInput;
  }

  set humanInput(provider: HumanInputProvider) {
    if (typeof provider !== "function") {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `humanInput must be a function, got ${showValue(provider)}`,
      );
    }
    this.#humanInput = provider;
  }

  /**
   * Runs a tool through the chain of hooks that applies to it. Never rejects
   * for a failing tool or hook, except a hook whose policy is `"throw"`. Never
   * throws either: wrong arguments (not a tool, an input that is not a plain
   * object, an unknown or ill-typed binding) reject with a `ToolwareTypeError`.
   *
   * @example
   * ```ts
   * const { status, result, trace } = await hooks.invoke(readFile, { path: "notes.md" }, { agent, task, crew });
   * ```
   */
  invoke<I extends object, O>(
    tool: Tool<I, O>,
    input?: I,
    bindings: CallBindings = NO_BINDINGS,
  ): Promise<ToolCallOutcome<O>> {
    let args: I;
    let b: CallBindings;
    try {
      assertTool(tool, "invoke");
      args = checkInput(tool.name, input, "invoke") as I;
      // The frozen default needs no look; anything else is read once and checked.
      b = bindings === NO_BINDINGS ? NO_BINDINGS : readBindings(bindings, "invoke");
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#call(tool, args, b);
  }

  /** Runs a call whose arguments are checked. */
  #call<I extends object, O>(tool: Tool<I, O>, args: I, b: CallBindings): Promise<ToolCallOutcome<O>> {
    const { agent, task, crew, signal, callId, framework } = b;
    if (running !== undefined) return startNestedCall(running, tool.name, () => this.#call(tool, args, b));
    // Not an `async` function: a chain that settles synchronously, or in one hop, should not pay for two more.
    let ctx: ToolCallHookContext<I, O>;
    let chain: Chain;
    let schema: ToolInputSchema<unknown> | undefined;
    try {
      chain = this.#chains.get(this._regs, this._version, tool.name, agent, crew);
      if (chain.refused !== undefined) return Promise.reject(chain.refused);
      schema = tool.inputSchema;
      if (
        chain.empty &&
        schema === undefined &&
        !this._listened &&
        (signal === undefined || signal === NEVER_ABORTED)
      ) {
        return this.#bare(tool, args, callId ?? nextCallId());
      }
      ctx = new ToolCallHookContext<I, O>(tool, args, agent, task, crew, signal, callId, framework, this.#services);
    } catch (error) {
      return Promise.reject(error);
    }
    claimDepth(ctx as unknown as ToolCallHookContext);
    running = ctx as unknown as ToolCallHookContext;
    const listened = this._listened;
    if (listened) {
      ctx._startedAt = this._emitter.listenerCount("call:end") > 0 ? performance.now() : -1;
      this._emit("call:start", { ctx });
    }
    let result: ToolCallOutcome<O> | Promise<ToolCallOutcome<O>>;
    try {
      // With a schema, the input is validated before any hook sees it.
      result = (
        schema === undefined
          ? chain.run(ctx as unknown as ToolCallHookContext, this.#done)
          : this.#validated(ctx as unknown as ToolCallHookContext, schema, chain)
      ) as typeof result;
    } catch (error) {
      running = undefined;
      return Promise.reject(this.#thrown(ctx, error));
    }
    running = undefined;
    if (!(result instanceof Promise)) return Promise.resolve(result);
    // Only a `"throw"` hook makes the chain reject. The step that reports it as `call:error` is paid
    // by chains that have one, or when someone listened at the start, so that a `call:error`
    // listener added during the call still hears of the rejection; and by calls with a signal of
    // their own, whose links must be released however the call ends.
    if (!listened && !chain.mayReject && ctx._signals === undefined) return result;
    return result.then(undefined, (error: unknown) => {
      throw this.#thrown(ctx, error);
    });
  }

  /** A call without hooks: no context, the tool's own `.then` builds the outcome. */
  #bare<I extends object, O>(tool: Tool<I, O>, args: I, callId: string): Promise<ToolCallOutcome<O>> {
    running = claimPending();
    let result: ToolCallOutcome<O> | Promise<ToolCallOutcome<O>>;
    try {
      result = runBare(tool as unknown as Tool<object, O>, args, callId, this.#services.formatFailed);
    } catch (error) {
      running = undefined;
      return Promise.reject(error);
    }
    running = undefined;
    return result instanceof Promise ? result : Promise.resolve(result);
  }

  readonly #done = (ctx: ToolCallHookContext): ToolCallOutcome => this.#outcome(ctx);

  /** Validates the input with the tool's schema, then runs the chain on the schema's output. */
  #validated(
    ctx: ToolCallHookContext,
    schema: ToolInputSchema<unknown>,
    chain: Chain,
  ): ToolCallOutcome | Promise<ToolCallOutcome> {
    const checked = checkInputSchema(schema, ctx.toolName, ctx._input, ctx.signal);
    if (checked instanceof Promise) return checked.then((c) => this.#checked(ctx, c, chain));
    return this.#checked(ctx, checked, chain);
  }

  #checked(ctx: ToolCallHookContext, checked: Checked, chain: Chain): ToolCallOutcome | Promise<ToolCallOutcome> {
    if (checked.failed === undefined) {
      ctx._input = checked.value as ToolCallHookContext["_input"];
      return chain.run(ctx, this.#done);
    }
    // No hook ran and none will: the call ends as a failed tool would, with the issues for the model.
    failBeforeTool(ctx, checked.error);
    ctx._refused = true;
    return this.#outcome(ctx);
  }

  #thrown<I extends object, O>(ctx: ToolCallHookContext<I, O>, error: unknown): unknown {
    finishCall(ctx);
    if (this._listened) this._emit("call:error", { ctx, error, outcome: undefined });
    return error;
  }

  #outcome<I extends object, O>(ctx: ToolCallHookContext<I, O>): ToolCallOutcome<O> {
    const outcome = closeCall(ctx);
    const status = outcome.status;
    if (this._listened) {
      if (status === "blocked") this._emit("call:blocked", { ctx, outcome, reason: outcome.reason });
      else if (status === "error") this._emit("call:error", { ctx, error: outcome.error, outcome });
      if (ctx._startedAt >= 0) {
        const durationMs = performance.now() - ctx._startedAt;
        this._emit(
          "call:end",
          ctx._refused ? { ctx, outcome, durationMs, refused: true } : { ctx, outcome, durationMs },
        );
      }
    }
    return outcome;
  }

  /**
   * Ends a call an adapter could not start (see `refusedOutcome`): the listeners hear of it as of a
   * call whose input was refused, `call:start`, `call:error`, then `call:end` with `refused: true`;
   * the outcome is `failed`, which the caller built. @internal
   */
  _refuse(input: unknown, bindings: unknown, failed: ToolCallOutcome): ToolCallOutcome {
    if (!this._listened) return failed;
    let b: CallBindings = NO_BINDINGS;
    try {
      if (bindings !== undefined) b = readBindings(bindings, "invoke");
    } catch {
      // Bindings that cannot be read may be why the call was refused: the call is told without them.
    }
    // The tool itself is not known here (a framework's tool, an MCP name): a stand-in that never runs.
    const stand: Tool<Record<string, unknown>, unknown> = {
      name: failed.toolName,
      tags: [],
      destructive: false,
      execute: () => {
        throw failed.error;
      },
    };
    const ctx = new ToolCallHookContext<Record<string, unknown>, unknown>(
      stand,
      safeInput(input),
      b.agent,
      b.task,
      b.crew,
      undefined,
      failed.callId === "" ? undefined : failed.callId,
      b.framework,
      this.#services,
    );
    ctx._startedAt = this._emitter.listenerCount("call:end") > 0 ? performance.now() : -1;
    this._emit("call:start", { ctx });
    failBeforeTool(ctx, failed.error);
    ctx.toolResult = failed.result;
    ctx._refused = true;
    return { ...this.#outcome(ctx), result: failed.result, callId: failed.callId };
  }

  /**
   * A tool of the same shape whose `execute(input, options?)` runs the chain and resolves to the
   * agent-facing string. The tool and bindings are checked here (a `ToolwareTypeError` is thrown);
   * a wrong input or signal given to `execute` rejects.
   *
   * @example
   * ```ts
   * const guarded = hooks.wrap(deleteFile, { agent: junior });
   * await guarded.execute({ path: "a.txt" }); // "Tool execution blocked by hook. …"
   * await guarded.execute({ path: "b.txt" }, { signal }); // cancellable
   * ```
   */
  wrap<I extends object, O>(tool: Tool<I, O>, bindings: CallBindings = NO_BINDINGS): WrappedTool<I> {
    assertTool(tool, "wrap");
    const bound = bindings === NO_BINDINGS ? NO_BINDINGS : readBindings(bindings, "wrap");
    return wrapTool(tool, bound, (args, checked) => this.#call(tool, args, checked));
  }

  /**
   * The hooks a call would run, outermost first (before-logic in this order,
   * after-logic in reverse). Conditional hooks are listed with `conditional: true`.
   *
   * @example
   * ```ts
   * hooks.explain({ toolName: "delete_file", agent: junior }).map((h) => `${h.layer}/${h.kind} ${h.name}`);
   * ```
   */
  explain(query: ExplainQuery): HookInfo[] {
    const { toolName, agent, crew } = checkExplainQuery(query);
    return this.#chains.get(this._regs, this._version, toolName, agent, crew).regs.map((r) => r.info);
  }

  /** @internal */
  override _reportListenerError(event: string, error: unknown): void {
    if (this.#onListenerError === undefined) super._reportListenerError(event, error);
    else {
      try {
        this.#onListenerError(event, error);
      } catch {
        super._reportListenerError(event, error);
      }
    }
  }
}
