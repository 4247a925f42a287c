import { buildChain, type Chain, selectHooks } from "./chain.js";
import { type CallServices, type HumanInputOptions, ToolCallHookContext } from "./context.js";
import { Agent, Crew, type Task } from "./entities.js";
import { HumanInputTimeoutError, HumanInputUnavailableError, messageOf, ToolwareError } from "./errors.js";
import { type HumanInputProvider, terminalHumanInput } from "./human-input.js";
import { HookRegistry, type RegistryEvents } from "./registry.js";
import type { Runtime, RuntimeHook } from "./run.js";
import { assertTool } from "./tool.js";
import type { HookErrorPolicy, HookInfo, Tool, ToolCallOutcome, ToolExecuteOptions } from "./types.js";

/** Who makes a call: all optional. */
export interface CallBindings {
  agent?: Agent | undefined;
  task?: Task | undefined;
  crew?: Crew | undefined;
  /** Cancels the call: the tool receives it (combined with any a hook links). */
  signal?: AbortSignal | undefined;
}

/** The agent-facing messages toolware writes; override any of them. */
export interface ToolHooksMessages {
  /** Default: `Tool execution blocked by hook. Tool: <name>` plus `. Reason: <reason>` when given. */
  blocked?: (toolName: string, reason: string | undefined) => string;
  /** When an after-phase hook failed and its result was withheld. */
  withheld?: (toolName: string, reason: string) => string;
  /** When the tool threw. */
  failed?: (toolName: string, error: unknown) => string;
}

/** Options of {@link ToolHooks}. */
export interface ToolHooksOptions {
  /** What a failing hook does unless it says otherwise. Default `"block"` (fail closed). */
  onHookError?: HookErrorPolicy;
  /** Record each hook's duration in the trace (costs two clock reads per hook). Default false. */
  timing?: boolean;
  /** Where `ctx.requestHumanInput` asks. Default: the terminal. */
  humanInput?: HumanInputProvider;
  messages?: ToolHooksMessages;
  /** Where a failing event listener (or message formatter) is reported. Default: `console.error`. */
  onListenerError?: (event: string, error: unknown) => void;
}

/** Payloads of the events a `ToolHooks` emits. */
export interface ToolHooksEvents extends RegistryEvents {
  "call:start": { readonly ctx: ToolCallHookContext };
  "call:end": { readonly ctx: ToolCallHookContext; readonly outcome: ToolCallOutcome; readonly durationMs: number };
  "call:blocked": {
    readonly ctx: ToolCallHookContext;
    readonly outcome: ToolCallOutcome;
    readonly reason: string | undefined;
  };
  /** The tool failed (`outcome` set), or a `"throw"` hook made `invoke` reject (`outcome` undefined). */
  "call:error": {
    readonly ctx: ToolCallHookContext;
    readonly error: unknown;
    readonly outcome: ToolCallOutcome | undefined;
  };
  "hook:error": {
    readonly ctx: ToolCallHookContext;
    readonly hook: HookInfo;
    readonly phase: "before" | "after";
    readonly error: unknown;
    readonly policy: HookErrorPolicy;
  };
}

/** A call's place in the cache: what `explain` takes. */
export interface ExplainQuery {
  toolName: string;
  agent?: Agent;
  crew?: Crew;
}

const POLICIES = new Set<HookErrorPolicy>(["block", "continue", "throw"]);
const OPTION_KEYS = new Set(["onHookError", "timing", "humanInput", "messages", "onListenerError"]);
const NONE = {};
const NO_BINDINGS: CallBindings = Object.freeze({});

const MESSAGE_KEYS = new Set(["blocked", "withheld", "failed"]);

function checkMessages(messages: ToolHooksMessages | undefined): ToolHooksMessages {
  if (messages === undefined) return {};
  if (messages === null || typeof messages !== "object") throw new TypeError("toolware: `messages` must be an object");
  for (const [key, value] of Object.entries(messages)) {
    if (!MESSAGE_KEYS.has(key)) {
      throw new TypeError(`toolware: unknown message \`${key}\` (expected one of: blocked, withheld, failed)`);
    }
    if (value !== undefined && typeof value !== "function") {
      throw new TypeError(`toolware: \`messages.${key}\` must be a function`);
    }
  }
  return messages;
}

function defaultBlocked(toolName: string, reason: string | undefined): string {
  return reason === undefined || reason === ""
    ? `Tool execution blocked by hook. Tool: ${toolName}`
    : `Tool execution blocked by hook. Tool: ${toolName}. Reason: ${reason}`;
}

function defaultWithheld(toolName: string, reason: string): string {
  return `Tool result withheld by hook. Tool: ${toolName}. Reason: ${reason}`;
}

function defaultFailed(toolName: string, error: unknown): string {
  return `Tool execution failed. Tool: ${toolName}. Error: ${messageOf(error)}`;
}

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

  constructor(options: ToolHooksOptions = {}) {
    super("global");
    if (options === null || typeof options !== "object")
      throw new TypeError("toolware: new ToolHooks() takes an options object");
    for (const key of Object.keys(options)) {
      if (!OPTION_KEYS.has(key)) {
        throw new TypeError(
          `toolware: unknown ToolHooks option \`${key}\` (expected one of: ${[...OPTION_KEYS].join(", ")})`,
        );
      }
    }
    const policy = options.onHookError ?? "block";
    if (!POLICIES.has(policy)) {
      throw new TypeError(
        `toolware: \`onHookError\` must be "block", "continue" or "throw", got ${JSON.stringify(policy)}`,
      );
    }
    this.#policy = policy;
    if (options.humanInput !== undefined && typeof options.humanInput !== "function") {
      throw new TypeError("toolware: `humanInput` must be a function (request) => string | Promise<string>");
    }
    if (options.timing !== undefined && typeof options.timing !== "boolean") {
      throw new TypeError("toolware: `timing` must be true or false");
    }
    if (options.onListenerError !== undefined && typeof options.onListenerError !== "function") {
      throw new TypeError("toolware: `onListenerError` must be a function");
    }
    this.#humanInput = options.humanInput ?? terminalHumanInput();
    this.#onListenerError = options.onListenerError;
    const messages = checkMessages(options.messages);
    // A user formatter that throws must not break the call: fall back to the default text, and say so.
    const safe = <A extends unknown[]>(
      kind: string,
      custom: ((...a: A) => string) | undefined,
      fallback: (...a: A) => string,
    ) =>
      custom === undefined
        ? fallback
        : (...args: A): string => {
            try {
              const text = custom(...args);
              if (typeof text === "string") return text;
              throw new TypeError(`returned ${typeof text} instead of a string`);
            } catch (error) {
              this._reportListenerError(`messages.${kind}`, error);
              return fallback(...args);
            }
          };
    const blocked = safe("blocked", messages.blocked, defaultBlocked);
    const withheld = safe("withheld", messages.withheld, defaultWithheld);
    const failed = safe("failed", messages.failed, defaultFailed);
    this.#runtime = {
      timing: options.timing === true,
      hookFailed: (ctx, hook: RuntimeHook, phase, error) =>
        this._emit("hook:error", { ctx, hook: hook.info, phase, error, policy: hook.policy }),
      formatWithheld: withheld,
      formatFailed: failed,
    };
    this.#services = {
      formatBlocked: blocked,
      requestHumanInput: (ctx, prompt, defaultMessage, options) => this.#ask(ctx, prompt, defaultMessage, options),
    };
  }

  /** The provider behind `ctx.requestHumanInput`. */
  get humanInput(): HumanInputProvider {
    return this.#humanInput;
  }

  set humanInput(provider: HumanInputProvider) {
    if (typeof provider !== "function") throw new TypeError("toolware: humanInput must be a function");
    this.#humanInput = provider;
  }

  /**
   * Runs a tool through the chain of hooks that applies to it. Never rejects
   * for a failing tool or hook, except a hook whose policy is `"throw"`.
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
    // Not an `async` function: a chain that settles synchronously, or in one hop, should not pay for two more.
    let ctx: ToolCallHookContext<I, O>;
    let chain: Chain;
    try {
      assertTool(tool);
      const args = input === undefined ? ({} as I) : input;
      if (args === null || typeof args !== "object") {
        throw new TypeError(
          `toolware: the input of tool ${tool.name} must be an object, got ${args === null ? "null" : typeof args}`,
        );
      }
      const { agent, crew } = bindings;
      if (agent !== undefined && !(agent instanceof Agent)) {
        throw new TypeError("toolware: bindings.agent must be an Agent (new Agent({ role }))");
      }
      if (crew !== undefined && !(crew instanceof Crew)) {
        throw new TypeError("toolware: bindings.crew must be a Crew (new Crew({ agents, tasks }))");
      }
      ctx = new ToolCallHookContext<I, O>(tool, args, bindings, this.#services);
      chain = this.#chainFor(tool.name, agent, crew);
    } catch (error) {
      return Promise.reject(error);
    }
    const listened = this._listened;
    if (listened) {
      ctx._startedAt = this._emitter.listenerCount("call:end") > 0 ? performance.now() : -1;
      this._emit("call:start", { ctx });
    }
    let result: ToolCallOutcome<O> | Promise<ToolCallOutcome<O>>;
    try {
      result = chain.run(ctx as unknown as ToolCallHookContext, this.#done) as typeof result;
    } catch (error) {
      return Promise.reject(this.#thrown(ctx, error));
    }
    if (!(result instanceof Promise)) return Promise.resolve(result);
    // Only a `"throw"` hook makes the chain reject. The step that reports it as `call:error` is paid
    // by chains that have one, or when someone listened at the start, so that a `call:error`
    // listener added during the call still hears of the rejection.
    if (!listened && !chain.mayReject) return result;
    return result.then(undefined, (error: unknown) => {
      throw this.#thrown(ctx, error);
    });
  }

  readonly #done = (ctx: ToolCallHookContext): ToolCallOutcome => this.#outcome(ctx);

  #thrown<I extends object, O>(ctx: ToolCallHookContext<I, O>, error: unknown): unknown {
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
    if (this._listened) {
      if (status === "blocked") this._emit("call:blocked", { ctx, outcome, reason: outcome.reason });
      else if (status === "error") this._emit("call:error", { ctx, error: outcome.error, outcome });
      if (ctx._startedAt >= 0) this._emit("call:end", { ctx, outcome, durationMs: performance.now() - ctx._startedAt });
    }
    return outcome;
  }

  /**
   * A tool of the same shape whose `execute` runs the chain and resolves to the agent-facing string.
   *
   * @example
   * ```ts
   * const guarded = hooks.wrap(deleteFile, { agent: junior });
   * await guarded.execute({ path: "a.txt" }, { signal, callId: "1" }); // "Tool execution blocked by hook. …"
   * ```
   */
  wrap<I extends object, O>(tool: Tool<I, O>, bindings: CallBindings = {}): Tool<I, string> {
    assertTool(tool);
    const execute = async (input: I, options?: Partial<ToolExecuteOptions>): Promise<string> => {
      const outcome = await this.invoke(tool, input, { ...bindings, signal: options?.signal ?? bindings.signal });
      return outcome.result;
    };
    return Object.freeze({
      name: tool.name,
      description: tool.description,
      tags: tool.tags,
      destructive: tool.destructive,
      execute,
    });
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
    if (query === null || typeof query !== "object" || typeof query.toolName !== "string") {
      throw new TypeError("toolware: explain() takes { toolName, agent?, crew? }");
    }
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

  async #ask(
    ctx: ToolCallHookContext,
    prompt: string,
    defaultMessage: string | undefined,
    options: HumanInputOptions | undefined,
  ): Promise<string> {
    if (typeof prompt !== "string") throw new TypeError("toolware: requestHumanInput() needs a prompt string");
    const timeoutMs = options?.timeoutMs;
    if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0)) {
      throw new TypeError("toolware: requestHumanInput() `timeoutMs` must be a positive number");
    }
    // The provider gets one signal: the call's, this question's, and the time limit's.
    const signals = [ctx.signal];
    if (options?.signal !== undefined) signals.push(options.signal);
    const limit = timeoutMs === undefined ? undefined : new AbortController();
    if (limit !== undefined) signals.push(limit.signal);
    const signal = signals.length === 1 ? ctx.signal : AbortSignal.any(signals);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const asked = Promise.resolve(
        this.#humanInput({ prompt, defaultMessage, toolName: ctx.toolName, callId: ctx.callId, signal }),
      );
      const answer = await (limit === undefined
        ? asked
        : Promise.race([
            asked,
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => {
                const error = new HumanInputTimeoutError(`no answer to "${prompt}" within ${timeoutMs} ms`);
                limit.abort(error);
                reject(error);
              }, timeoutMs);
            }),
          ]));
      if (typeof answer !== "string") {
        throw new HumanInputUnavailableError(`the human-input provider returned ${typeof answer} instead of a string`);
      }
      return answer;
    } catch (error) {
      if (error instanceof ToolwareError) throw error;
      throw new HumanInputUnavailableError(`the human-input provider failed: ${messageOf(error)}`, { cause: error });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
    }
  }
}
