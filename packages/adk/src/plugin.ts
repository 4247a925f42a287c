import { BasePlugin, type BaseTool, type Context, type InvocationContext, isAgentTool } from "@google/adk";
import {
  adviseDeveloper,
  type BindFunction,
  type OutcomeListener,
  refusedOutcome,
  ToolHooks,
  ToolwareError,
  ToolwareTypeError,
} from "@toolware/core";
import type { AdkCall } from "./call.js";
import { ADAPTER, type AdkToolInfo, type ChainOptions, type Started, startChain } from "./chain.js";
import { guardAgentTool, type InnerGuard } from "./inner.js";
import { checkOptions } from "./options.js";
import { type AdkToolResponse, keptAsIs, outcomeToResponse } from "./outcome.js";

/** Options of {@link toolwarePlugin}. */
export interface ToolwarePluginOptions {
  /** Picks the agent, task and crew of each call (from `call.agentName`, `call.toolContext.state`, …). A throw fails that call closed. */
  bind?: BindFunction<AdkCall>;
  /** Told how every call ended; what it throws goes to the ToolHooks' `onListenerError`. */
  onOutcome?: OutcomeListener<AdkCall>;
  /** Per tool name: `destructive` and `tags` for guards and selectors. */
  tools?: Readonly<Record<string, AdkToolInfo>>;
  /** The plugin's name in the Runner (ADK refuses two plugins of one name). Default `"toolware"`. */
  name?: string;
}

/** A call whose tool ADK runs now: the chain waits at `execute` for what the tool returned or threw. */
interface Running extends Started {
  /** The id of the run the call belongs to (ADK gives each agent of the run a copy of its context). */
  readonly invocation: string;
  settle(result: { value: unknown } | { error: unknown }): void;
}

/** The plugin {@link toolwarePlugin} returns. */
export class ToolwarePlugin extends BasePlugin {
  readonly #options: ChainOptions;
  readonly #running = new Map<Context, Running>();
  readonly #inner: InnerGuard;

  /** @internal Use {@link toolwarePlugin}. */
  constructor(hooks: ToolHooks, options: ToolwarePluginOptions) {
    super(options.name ?? "toolware");
    this.#options = { hooks, bind: options.bind, onOutcome: options.onOutcome, tools: options.tools };
    this.#inner = { hooks, options: this.#options, handled: (context) => claimed.get(context)?.has(hooks) === true };
  }

  /** The ToolHooks this plugin runs. */
  get hooks(): ToolHooks {
    return this.#options.hooks;
  }

  override async beforeToolCallback(params: {
    tool: BaseTool;
    toolArgs: Record<string, unknown>;
    toolContext: Context;
  }): Promise<AdkToolResponse | undefined> {
    const { tool, toolArgs, toolContext } = params;
    if (!claim(toolContext, this.hooks)) return undefined;
    if (isAgentTool(tool)) {
      // The agent behind an AgentTool runs in a Runner of its own, without this plugin: its tools are guarded one by one.
      try {
        guardAgentTool(tool, this.#inner);
      } catch (error) {
        const outcome = refusedOutcome(this.hooks, ADAPTER, tool.name, toolContext.functionCallId ?? "", error, {
          input: toolArgs,
        });
        release(toolContext, this.hooks);
        return { error: outcome.result };
      }
    }
    let settle: Running["settle"] = () => {};
    const result = new Promise<unknown>((resolve, reject) => {
      settle = (r) => ("error" in r ? reject(r.error) : resolve(r.value));
    });
    let reached: (args: Record<string, unknown>) => void = () => {};
    const entered = new Promise<Record<string, unknown>>((resolve) => (reached = resolve));
    let first = true;
    const started = startChain(this.#options, tool, toolArgs, toolContext, (args) => {
      if (!first) return tool.runAsync({ args, toolContext }); // a retry: this time toolware runs the tool itself
      first = false;
      reached(args);
      return result;
    });
    const next = await Promise.race([
      started.outcome.then((outcome) => ({ outcome })),
      entered.then((args) => ({ args })),
    ]);
    if ("outcome" in next) {
      release(toolContext, this.hooks);
      return outcomeToResponse(next.outcome, started.facts);
    }
    // ADK hands the tool (and the agent's own callbacks) the object it passed here: a rewrite goes in place.
    if (next.args !== toolArgs) {
      for (const key of Object.keys(toolArgs)) if (!Object.hasOwn(next.args, key)) delete toolArgs[key];
      Object.assign(toolArgs, next.args);
    }
    this.#running.set(toolContext, { ...started, invocation: toolContext.invocationContext?.invocationId, settle });
    return undefined;
  }

  override async afterToolCallback(params: {
    tool: BaseTool;
    toolArgs: Record<string, unknown>;
    toolContext: Context;
    result: Record<string, unknown>;
  }): Promise<AdkToolResponse | undefined> {
    const running = this.#take(params.toolContext);
    if (running === undefined) return undefined;
    running.settle({ value: params.result });
    const outcome = await running.outcome;
    // Unchanged: undefined, so that the plugins and agent callbacks after this one still run.
    return keptAsIs(outcome, running.facts) ? undefined : outcomeToResponse(outcome, running.facts);
  }

  override async onToolErrorCallback(params: {
    tool: BaseTool;
    toolArgs: Record<string, unknown>;
    toolContext: Context;
    error: Error;
  }): Promise<AdkToolResponse | undefined> {
    const running = this.#take(params.toolContext);
    if (running === undefined) return undefined;
    running.settle({ error: params.error });
    // Always an answer: without one ADK puts its own error text in place of the chain's outcome.
    return outcomeToResponse(await running.outcome, running.facts);
  }

  override async afterRunCallback(params: { invocationContext: InvocationContext }): Promise<void> {
    // A call whose result never came back here (a plugin before this one answered ADK's after
    // callback): its chain ends as an error instead of waiting for ever, and the developer hears why.
    for (const [context, running] of this.#running) {
      if (running.invocation !== params.invocationContext.invocationId) continue;
      this.#take(context);
      const why = new ToolwareError(
        "TOOLWARE_ADK_RESULT_LOST",
        "the tool's result never reached toolware's plugin: a plugin registered before it answered ADK's afterToolCallback; put toolwarePlugin first",
      );
      running.settle({ error: why });
      await running.outcome;
      adviseDeveloper(this.hooks, "adk.afterToolCallback", why);
    }
  }

  #take(context: Context): Running | undefined {
    const running = this.#running.get(context);
    if (running !== undefined) {
      this.#running.delete(context);
      release(context, this.hooks);
    }
    return running;
  }
}

// Each call runs one chain per ToolHooks at a time: a second plugin of the same hooks lets it through.
const claimed = new WeakMap<Context, Set<ToolHooks>>();
function claim(context: Context, hooks: ToolHooks): boolean {
  const set = claimed.get(context) ?? new Set<ToolHooks>();
  claimed.set(context, set);
  if (set.has(hooks)) return false;
  set.add(hooks);
  return true;
}
function release(context: Context, hooks: ToolHooks): void {
  claimed.get(context)?.delete(hooks);
}

/**
 * An ADK plugin that runs every tool call of the Runner (every agent's and sub-agent's, and the
 * tools of agents used through an `AgentTool`) through the hooks' chain. Register it first in
 * `plugins`: a blocked call's `{ error: reason }` is its function response, rewritten arguments
 * reach the tool, the result goes back through the chain (a redaction replaces it), and a tool's
 * error reaches the chain through `onToolErrorCallback`. When the hooks let the call run and leave
 * its result as it was, the plugin returns undefined, so later plugins and agent callbacks still run.
 *
 * @example
 * ```ts
 * const runner = new InMemoryRunner({ agent, appName: "ops", plugins: [toolwarePlugin(hooks)] });
 * ```
 */
export function toolwarePlugin(hooks: ToolHooks, options: ToolwarePluginOptions = {}): ToolwarePlugin {
  if (!(hooks instanceof ToolHooks)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      "toolwarePlugin() needs a ToolHooks as its first argument",
    );
  }
  return new ToolwarePlugin(hooks, checkOptions(options));
}
