import { Agent, Crew, defineTool, type HookOptions, type Tool, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { input, type QueryInput, TOOL_NAME, trivialTool } from "./fixtures.js";

/** Which kinds of hook a stack cycles through. */
export type HookMix = "mixed" | "sync" | "middleware" | "one-middleware";

export interface StackOptions {
  /** Hooks that apply to the call. */
  hooks: number;
  /**
   * `mixed` cycles before, after, middleware; `sync` before, after; `middleware` only middlewares;
   * `one-middleware` is `sync` with the third hook a middleware. Default `mixed`.
   */
  mix?: HookMix;
  /** Extra hooks registered for other tools or agents, which must cost nothing. */
  nonMatching?: number;
  /** `ToolHooks({ timing })`: per-hook durations in the trace. */
  timing?: boolean;
  /** Called by every hook when given: used once to prove all hooks run, never while timing. */
  probe?: () => void;
}

/** A ready stack: `call()` makes one `hooks.invoke` of the trivial tool. */
export interface ToolwareStack {
  readonly hooks: ToolHooks;
  readonly tool: Tool<QueryInput, string>;
  /** The agent and crew every call is bound to. */
  readonly bindings: { readonly agent: Agent; readonly crew: Crew };
  readonly call: () => Promise<ToolCallOutcome<string>>;
}

/** The kind of the i-th hook of a stack. */
export type Kind = "before" | "after" | "middleware";

const KINDS: Record<Exclude<HookMix, "one-middleware">, readonly Kind[]> = {
  mixed: ["before", "after", "middleware"],
  sync: ["before", "after"],
  middleware: ["middleware"],
};

/** The kind of the i-th hook of a stack of that mix. */
export function kindAt(mix: HookMix, i: number): Kind {
  if (mix !== "one-middleware") {
    const kinds = KINDS[mix];
    return kinds[i % kinds.length] as Kind;
  }
  if (i === 2) return "middleware";
  return i < 2 ? (KINDS.sync[i] as Kind) : (KINDS.sync[(i - 1) % 2] as Kind);
}

// Every form of filter, all matching the call: they are resolved when the chain is built, never per call.
function matchingOptions(i: number, tool: Tool<QueryInput, string>): HookOptions {
  switch (i % 5) {
    case 0:
      return { tools: TOOL_NAME };
    case 1:
      return { tools: "bench_*", agents: "researcher" };
    case 2:
      return { tools: [tool, "other_tool"] };
    case 3:
      return { tools: /^bench_/, priority: 5 };
    default:
      return { agents: ["researcher", "writer"] };
  }
}

// Filters that exclude the call: another tool, another glob, another RegExp, the right tool but another agent.
function otherOptions(i: number): HookOptions {
  switch (i % 4) {
    case 0:
      return { tools: `other_tool_${i}` };
    case 1:
      return { tools: "archive_*" };
    case 2:
      return { tools: /^zzz_/ };
    default:
      return { tools: "bench_*", agents: "intern" };
  }
}

/**
 * Builds a toolware stack with hooks spread over the global, crew and agent
 * layers, each with a tool or agent filter that matches the call.
 *
 * @example
 * ```ts
 * const { call } = toolwareStack({ hooks: 10 });
 * const outcome = await call(); // outcome.result === "q", outcome.trace.length === 10
 * ```
 */
export function toolwareStack(options: StackOptions): ToolwareStack {
  const { hooks: n, mix = "mixed", nonMatching = 0, timing = false, probe } = options;
  const tool = defineTool({ name: TOOL_NAME, execute: trivialTool });
  const hooks = new ToolHooks({ timing });
  const agent = new Agent({ role: "researcher" });
  const crew = new Crew({ agents: [agent] });
  const layers = [hooks, crew, agent] as const;
  const add = (i: number, kind: Kind, opts: HookOptions): void => {
    const layer = layers[i % 3] as (typeof layers)[number];
    if (kind === "before") layer.before(probe === undefined ? () => {} : () => probe(), opts);
    else if (kind === "after") layer.after(probe === undefined ? () => {} : () => probe(), opts);
    else if (probe === undefined)
      layer.use(async (_ctx, next) => {
        await next();
      }, opts);
    else
      layer.use(async (_ctx, next) => {
        probe();
        await next();
      }, opts);
  };
  // Non-matching hooks go first and interleave by layer, so they sit between matching ones in every list.
  for (let i = 0; i < nonMatching; i++) add(i, kindAt(mix, i), otherOptions(i));
  for (let i = 0; i < n; i++) add(i, kindAt(mix, i), matchingOptions(i, tool));
  const bindings = { agent, crew };
  return { hooks, tool, bindings, call: () => hooks.invoke(tool, input, bindings) };
}
