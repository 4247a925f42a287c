import { messageOf, ToolwareTypeError, toolwareCode } from "./errors.js";
import { isStandardSchema } from "./input-schema.js";
import { checkKeys, describeValue, hasNameCharacter, type KeyHints, showValue } from "./keys.js";
import type { Tool, ToolExecuteOptions, ToolInput, ToolInputSchema } from "./types.js";

/** What {@link defineTool} takes. */
export interface ToolDefinition<I extends object, O> {
  name: string;
  description?: string;
  /**
   * A Standard Schema (zod 4, valibot, arktype, …) for the input: `invoke` validates the input
   * with it before any hook sees it, and hooks and `execute` get its output (defaults and
   * transforms applied). `execute`'s input type is inferred from it.
   */
  inputSchema?: ToolInputSchema<I>;
  execute: (input: I, options: ToolExecuteOptions) => O | Promise<O>;
  /** Turns a non-string result into the agent-facing string (default: compact JSON). */
  formatResult?: (raw: O) => string;
  tags?: readonly string[];
  destructive?: boolean;
}

const TOOL_KEYS = ["name", "description", "inputSchema", "execute", "formatResult", "tags", "destructive"];
const SCHEMA_KEY = "did you mean `inputSchema`? (it takes a zod, valibot, arktype or other Standard Schema)";
const TOOL_HINTS: KeyHints = {
  schema: SCHEMA_KEY,
  parameters: SCHEMA_KEY,
  input_schema: SCHEMA_KEY,
  inputschema: SCHEMA_KEY,
  argsSchema: SCHEMA_KEY,
  func: "did you mean `execute`? (LangChain's `func` is toolware's `execute`)",
  handler: "did you mean `execute`?",
  run: "did you mean `execute`?",
  invoke: "did you mean `execute`?",
};

// Tools defineTool (or wrap) made: frozen and checked once, so a call need not check them again.
const checked = new WeakSet<object>();

function invalid(message: string, cause?: unknown): ToolwareTypeError {
  return new ToolwareTypeError("TOOLWARE_INVALID_TOOL", message, cause === undefined ? undefined : { cause });
}

/** Checks the fields guards read; `who` names the tool in messages. Returns the tags, defaulted. */
function checkFields(who: string, fields: Record<string, unknown>): readonly string[] {
  const { description, formatResult, tags, destructive, inputSchema } = fields;
  if (description !== undefined && typeof description !== "string") {
    throw invalid(`${who}: \`description\` must be a string, got ${showValue(description)}`);
  }
  // A schema that is not one would validate nothing: refuse it rather than skip validation.
  if (inputSchema !== undefined && !isStandardSchema(inputSchema)) {
    throw invalid(
      `${who}: \`inputSchema\` must be a Standard Schema v1 (zod 4, valibot, arktype: an object with ` +
        `"~standard".validate), got ${showValue(inputSchema)}; a JSON Schema is not one (for another ` +
        `framework's tool that the framework validates already, leave it out: { ...tool, inputSchema: undefined })`,
    );
  }
  if (formatResult !== undefined && typeof formatResult !== "function") {
    throw invalid(`${who}: \`formatResult\` must be a function, got ${showValue(formatResult)}`);
  }
  // Guardrails match on `destructive === true`: "yes" must not quietly mean false.
  if (destructive !== undefined && typeof destructive !== "boolean") {
    throw invalid(`${who}: \`destructive\` must be true or false, got ${showValue(destructive)}`);
  }
  if (tags === undefined) return [];
  if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string")) {
    throw invalid(`${who}: \`tags\` must be an array of strings, got ${showValue(tags)}`);
  }
  return tags as readonly string[];
}

function checkName(name: unknown, noName: string): asserts name is string {
  if (typeof name !== "string" || name === "") throw invalid(noName);
  // Filters compare normalised names: a name of blanks or separators ("  ", "__", "--") names nothing.
  if (!hasNameCharacter(name)) {
    throw invalid(`the tool name ${JSON.stringify(name)} is only blanks and separators; give it a letter or digit`);
  }
}

/**
 * Makes a tool. `execute` may be sync or async and receives the input and an
 * options object with the call's `signal` and `callId`. With an `inputSchema`, the input
 * is validated before any hook sees it and its type is inferred from the schema.
 *
 * @example
 * ```ts
 * const search = defineTool({
 *   name: "web_search",
 *   execute: async ({ query }: { query: string }, { signal }) => fetchResults(query, signal),
 * });
 * const weather = defineTool({
 *   name: "weather",
 *   inputSchema: z.object({ city: z.string() }),
 *   execute: ({ city }) => forecast(city), // city: string
 * });
 * ```
 */
export function defineTool<I extends object = ToolInput, O = unknown>(definition: ToolDefinition<I, O>): Tool<I, O> {
  if (definition === null || typeof definition !== "object") {
    throw invalid(`defineTool() takes an object { name, execute }, got ${showValue(definition)}`);
  }
  checkKeys(definition, TOOL_KEYS, "defineTool() field", TOOL_HINTS);
  const { name, description, execute, formatResult, inputSchema } = definition;
  checkName(name, "a tool needs a non-empty `name`");
  if (typeof execute !== "function") throw invalid(`tool ${name} needs an \`execute\` function`);
  const tags = checkFields(`tool ${name}`, definition as unknown as Record<string, unknown>);
  const tool: Tool<I, O> = {
    name,
    description,
    // Always present, so every tool made here has one shape and the check in invoke stays cheap.
    inputSchema,
    tags: Object.freeze([...tags]),
    destructive: definition.destructive === true,
    execute,
    ...(formatResult === undefined ? {} : { formatResult }),
  };
  return markChecked(Object.freeze(tool));
}

/**
 * A tool's `inputSchema` typed by the tool's input, for adapters that hand it to a framework
 * whose types follow the schema (the AI SDK's `tool({ inputSchema })`). `undefined` when it has none.
 *
 * @example
 * ```ts
 * const schema = inputSchemaOf(weather); // ToolInputSchema<{ city: string }> | undefined
 * ```
 */
export function inputSchemaOf<I extends object>(tool: Tool<I, unknown>): ToolInputSchema<I> | undefined {
  // defineTool inferred I from this schema's output, and invoke hands that output on as the input.
  return tool.inputSchema as ToolInputSchema<I> | undefined;
}

// The tool the last call checked: calls of one tool in a row skip the set. It starts as an object no
// caller holds, never `undefined`: a process's first `invoke(undefined)` must be refused with a code.
let lastChecked: object = Object.freeze({});

/** Records a frozen tool whose fields are known good. @internal */
export function markChecked<T extends Tool<never, unknown>>(tool: T): T {
  checked.add(tool);
  return tool;
}

function notATool(tool: unknown, where: string): ToolwareTypeError {
  const base = `${where}() needs a tool made with defineTool() (an object with \`name\` and \`execute\`), got ${describeValue(tool)}`;
  if (typeof tool === "function") return invalid(`${base}; make it one: defineTool({ name, execute: fn })`);
  const own = tool as { invoke?: unknown; name?: unknown } | null;
  if (own !== null && typeof own === "object" && typeof own.invoke === "function") {
    return invalid(
      `${base}; a LangChain-style tool runs with invoke(): defineTool({ name: t.name, execute: (input) => t.invoke(input) })`,
    );
  }
  return invalid(base);
}

/**
 * Checks that a value can be invoked as a tool, as `defineTool` would have checked it:
 * a hand-made object must not slip in a blank name or a `destructive` that is not a boolean.
 * `where` is the API that was called, for the messages. @internal
 */
export function assertTool(tool: unknown, where: "invoke" | "wrap"): asserts tool is Tool<never, unknown> {
  if (tool === lastChecked || checked.has(tool as object)) {
    lastChecked = tool as object;
    return;
  }
  try {
    checkHandMade(tool, where);
  } catch (error) {
    if (toolwareCode(error) !== undefined) throw error;
    // A getter or Proxy trap that throws: the call must be refused with a code, not reject with its error.
    throw invalid(
      `${where}() got a tool whose fields cannot be read (${messageOf(error)}); make it with defineTool()`,
      error,
    );
  }
}

function checkHandMade(tool: unknown, where: "invoke" | "wrap"): asserts tool is Tool<never, unknown> {
  if (tool === null || typeof tool !== "object" || typeof (tool as Tool).execute !== "function") {
    throw notATool(tool, where);
  }
  const name = (tool as Tool).name;
  checkName(
    name,
    `${where}() got a tool with no name (${showValue(name)}); tools of other frameworks may be named by ` +
      `their key instead (the AI SDK's \`tools: { weather: tool({ … }) }\`): give it one, ` +
      `${where === "wrap" ? "hooks.wrap" : "hooks.invoke"}({ ...tool, name: "weather" }${where === "wrap" ? "" : ", input"})`,
  );
  checkFields(`${where}(): tool ${name}`, tool as unknown as Record<string, unknown>);
}
