import type { Tool, ToolExecuteOptions, ToolInput } from "./types.js";

/** What {@link defineTool} takes. */
export interface ToolDefinition<I extends object, O> {
  name: string;
  description?: string;
  execute: (input: I, options: ToolExecuteOptions) => O | Promise<O>;
  /** Turns a non-string result into the agent-facing string (default: compact JSON). */
  formatResult?: (raw: O) => string;
  tags?: readonly string[];
  destructive?: boolean;
}

/**
 * Makes a tool. `execute` may be sync or async and receives the input and an
 * options object with the call's `signal` and `callId`.
 *
 * @example
 * ```ts
 * const search = defineTool({
 *   name: "web_search",
 *   execute: async ({ query }: { query: string }, { signal }) => fetchResults(query, signal),
 * });
 * ```
 */
export function defineTool<I extends object = ToolInput, O = unknown>(definition: ToolDefinition<I, O>): Tool<I, O> {
  if (definition === null || typeof definition !== "object") {
    throw new TypeError("toolware: defineTool() takes an object { name, execute }");
  }
  const { name, description, execute, formatResult, tags = [], destructive = false } = definition;
  if (typeof name !== "string" || name.trim() === "") throw new TypeError("toolware: a tool needs a non-empty `name`");
  if (typeof execute !== "function") throw new TypeError(`toolware: tool ${name} needs an \`execute\` function`);
  if (formatResult !== undefined && typeof formatResult !== "function") {
    throw new TypeError(`toolware: tool ${name}: \`formatResult\` must be a function`);
  }
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string")) {
    throw new TypeError(`toolware: tool ${name}: \`tags\` must be an array of strings`);
  }
  const tool: Tool<I, O> = {
    name,
    description,
    tags: Object.freeze([...tags]),
    destructive: destructive === true,
    execute,
    ...(formatResult === undefined ? {} : { formatResult }),
  };
  return Object.freeze(tool);
}

/** Checks that a value can be invoked as a tool. @internal */
export function assertTool(tool: unknown): asserts tool is Tool<never, unknown> {
  if (tool === null || typeof tool !== "object" || typeof (tool as Tool).execute !== "function") {
    throw new TypeError("toolware: invoke() needs a tool made with defineTool() (an object with `name` and `execute`)");
  }
  if (typeof (tool as Tool).name !== "string" || (tool as Tool).name === "") {
    throw new TypeError("toolware: the tool has no name");
  }
}
