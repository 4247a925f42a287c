import { askHuman } from "./ask-human.js";
import { checkExplainQuery, checkInput, readBindings } from "./call-args.js";
import type { ToolHooksEvents } from "./call-events.js";
import { buildChain, type Chain, selectHooks } from "./chain.js";
import { type CallServices, ToolCallHookContext } from "./context.js";
import type { Agent, Crew, Task } from "./entities.js";
import { ToolwareTypeError } from "./errors.js";
import type { HumanInputProvider } from "./human-input.js";
import { type Checked, checkInputSchema } from "./input-schema.js";
import { showValue } from "./keys.js";
import { claimDepth, depthBelow, depthError, startNested } from "./nesting.js";
import { resolveOptions, type ToolHooksOptions } from "./options.js";
import { HookRegistry } from "./registry.js";
import type { Runtime, RuntimeHook } from "./runtime.js";
import { assertTool } from "./tool.js";
import type { FrameworkCall, HookErrorPolicy, HookInfo, Tool, ToolCallOutcome, ToolInputSchema } from "./types.js";
import { type WrappedTool, wrapTool } from "./wrap.js";

export type { ToolHooksEvents };

// The call whose chain is running synchronously right now: a call started meanwhile nests in it.
let running: ToolCallHookContext | undefined;

/** Who makes a call: all optional. */
export interface CallBindings {
  agent?: Agent | undefined;
  task?: Task | undefined;
  crew?: Crew | undefined;
  /** Cancels the call: the tool receives the call's own signal, which aborts with this one's reason (and with any a hook links). */
  signal?: AbortSignal | undefined;
  /**
   * The framework's own id of this call (the AI SDK's `toolCallId`, MCP's `requestId`): it becomes
   * `ctx.callId`, `outcome.callId` and the id the tool receives. A non-empty string of at most 256
   * printable characters; `invoke` only (every call of a wrapped tool has its own). Default: a fresh id.
   */
  callId?: string | undefined;
  /** The framework's own context of this call, read by hooks as `ctx.framework`; set by adapters. */
  framework?: FrameworkCall | undefined;
}

/** A call's place in the cache: what `explain` takes. */
export interface ExplainQuery {
  toolName: string;
  agent?: Agent;
  crew?: Crew;
}

const NONE = {};
const NO_BINDINGS: CallBindings = Object.freeze({});

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
  readonly #policy: HookErrorPolicy;
  readonly #runtime: Runtime;
  readonly #services: CallServices;
  readonly #onListenerError: ((event: string, error: unknown) => void) | undefined;
  #humanInput: HumanInputProvider;
  readonly #plain = new Map<string, Chain>();
  readonly #scoped = new WeakMap<object, WeakMap<object, Map<string, Chain>>>();
  // Registrations whose ignored return value was reported already.
  readonly #ignoredReturns = new WeakSet<HookInfo>();

  constructor(options: ToolHooksOptions = {}) {
    super("global");
    const resolved = resolveOptions(options, (where, error) => this._reportListenerError(where, error));
    this.#policy = resolved.policy;
    this.#humanInput = resolved.humanInput;
    this.#onListenerError = resolved.onListenerError;
    this.#runtime = {
      timing: resolved.timing,
      hookFailed: (ctx, hook: RuntimeHook, phase, error) =>
        this._emit("hook:error", { ctx, hook: hook.info, phase, error, policy: hook.policy }),
      formatWithheld: resolved.messages.withheld,
      formatFailed: resolved.messages.failed,
      ignoredReturn: (ctx, hook: RuntimeHook, value) => {
        if (this.#ignoredReturns.has(hook.info)) return;
        this.#ignoredReturns.add(hook.info);
        this._emit("hook:ignored-return", { ctx, hook: hook.info, value });
      },
    };
    this.#services = {
      formatBlocked: resolved.messages.blocked,
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
    let checked: CallBindings;
    try {
      assertTool(tool, "invoke");
      args = checkInput(tool.name, input, "invoke") as I;
      // The frozen default needs no look; anything else is read once and checked.
      checked = bindings === NO_BINDINGS ? NO_BINDINGS : readBindings(bindings, "invoke");
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#call(tool, args, checked);
  }

  /** Runs a call whose arguments are checked. */
  #call<I extends object, O>(tool: Tool<I, O>, args: I, bindings: CallBindings): Promise<ToolCallOutcome<O>> {
    if (running !== undefined) return this.#nested(tool, args, bindings, running);
    // Not an `async` function: a chain that settles synchronously, or in one hop, should not pay for two more.
    let ctx: ToolCallHookContext<I, O>;
    let chain: Chain;
    try {
      ctx = new ToolCallHookContext<I, O>(tool, args, bindings, this.#services);
      chain = this.#chainFor(tool.name, bindings.agent, bindings.crew);
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
      // One load for tools without a schema; with one, the input is validated before any hook sees it.
      const schema = tool.inputSchema;
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

  // A call started while another one's chain runs synchronously (a tool that calls `invoke`) starts
  // on a fresh stack one microtask later, so that nesting costs no stack, however deep.
  #nested<I extends object, O>(
    tool: Tool<I, O>,
    args: I,
    bindings: CallBindings,
    parent: ToolCallHookContext,
  ): Promise<ToolCallOutcome<O>> {
    const depth = depthBelow(parent);
    const tooDeep = depthError(tool.name, depth);
    if (tooDeep !== undefined) return Promise.reject(tooDeep);
    return Promise.resolve().then(() => startNested(depth, () => this.#call(tool, args, bindings)));
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
    ctx.error = checked.error;
    ctx._status = "error";
    ctx.toolResult = this.#runtime.formatFailed(ctx.toolName, checked.error);
    return this.#outcome(ctx);
  }

  #thrown<I extends object, O>(ctx: ToolCallHookContext<I, O>, error: unknown): unknown {
    ctx._finished = true;
    ctx._signals?.release();
    if (this._listened) this._emit("call:error", { ctx, error, outcome: undefined });
    return error;
  }

  #outcome<I extends object, O>(ctx: ToolCallHookContext<I, O>): ToolCallOutcome<O> {
    const status = ctx._status;
    const outcome: ToolCallOutcome<O> = {
      status,
      result: ctx.toolResult ?? "",
      raw: ctx.rawToolResult,
      reason: status === "blocked" ? ctx._reason : undefined,
      error: status === "error" ? ctx.error : ctx._failure,
      trace: ctx._trace,
      callId: ctx.callId,
      toolName: ctx.toolName,
    };
    ctx._finished = true;
    ctx._signals?.release();
    if (this._listened) {
      if (status === "blocked") this._emit("call:blocked", { ctx, outcome, reason: outcome.reason });
      else if (status === "error") this._emit("call:error", { ctx, error: outcome.error, outcome });
      if (ctx._startedAt >= 0) this._emit("call:end", { ctx, outcome, durationMs: performance.now() - ctx._startedAt });
    }
    return outcome;
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
    checkExplainQuery(query);
    return this.#chainFor(query.toolName, query.agent, query.crew).regs.map((r) => r.info);
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

  #chainFor(toolName: string, agent: Agent | undefined, crew: Crew | undefined): Chain {
    let cache: Map<string, Chain>;
    if (agent === undefined && crew === undefined) {
      cache = this.#plain;
    } else {
      let byAgent = this.#scoped.get(crew ?? NONE);
      if (byAgent === undefined) {
        byAgent = new WeakMap();
        this.#scoped.set(crew ?? NONE, byAgent);
      }
      let found = byAgent.get(agent ?? NONE);
      if (found === undefined) {
        found = new Map();
        byAgent.set(agent ?? NONE, found);
      }
      cache = found;
    }
    const gv = this._version;
    const cv = crew === undefined ? -1 : crew._version;
    const av = agent === undefined ? -1 : agent._version;
    const cached = cache.get(toolName);
    if (cached !== undefined && cached.versions[0] === gv && cached.versions[1] === cv && cached.versions[2] === av) {
      return cached;
    }
    const layers = [this._regs];
    if (crew !== undefined) layers.push(crew._regs);
    if (agent !== undefined) layers.push(agent._regs);
    const chain = buildChain(this.#runtime, selectHooks(layers, toolName, agent), this.#policy, [gv, cv, av]);
    cache.set(toolName, chain);
    return chain;
  }
}
