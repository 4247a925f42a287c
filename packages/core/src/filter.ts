import type { ToolCallHookContext } from "./context.js";
import { messageOf, ToolwareTypeError } from "./errors.js";
import { checkKeys, MAX_TIMER_MS, readOnce, showValue } from "./keys.js";
import { compileNameTest, type NameTest } from "./names.js";
import type { AgentFilter, ContextPredicate, HookErrorPolicy, HookOptions, ToolFilter } from "./types.js";

/** A filter split into what can be decided once per chain and what must run per call. */
export interface CompiledFilter {
  /** Tests on the tool name: all must pass. */
  readonly tools: readonly NameTest[];
  /** Tests on the agent role: all must pass; a call without an agent fails them. */
  readonly agents: readonly NameTest[];
  /** Per-call predicates: all must pass. */
  readonly predicates: readonly ContextPredicate[];
}

const OPTION_KEYS = ["name", "priority", "tools", "agents", "onError", "timeoutMs"];
const OPTION_HINTS = {
  hooks: "`hooks` only exists for decorators (@beforeToolCall({ hooks })); register on that instance instead",
  timeout: "did you mean `timeoutMs` (milliseconds)?",
};
const POLICIES: readonly HookErrorPolicy[] = ["block", "continue", "throw"];

function isToolObject(value: unknown): value is { name: string; execute: unknown } {
  return typeof value === "object" && value !== null && typeof (value as { execute?: unknown }).execute === "function";
}

function anyOf(tests: NameTest[]): NameTest {
  if (tests.length === 1) return tests[0] as NameTest;
  return (raw, normalized) => tests.some((t) => t(raw, normalized));
}

function compileNames(filter: ToolFilter | AgentFilter, what: "tools" | "agents"): NameTest {
  const items = Array.isArray(filter) ? (filter as readonly unknown[]) : [filter];
  if (items.length === 0) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_FILTER",
      `the \`${what}\` filter is an empty list, so the hook would never run`,
    );
  }
  return anyOf(
    items.map((item) => {
      if (what === "tools" && isToolObject(item)) return compileNameTest(item.name);
      if (typeof item === "function") {
        throw new ToolwareTypeError(
          "TOOLWARE_INVALID_FILTER",
          `a \`${what}\` list takes names, globs and RegExps; pass a predicate on its own`,
        );
      }
      return compileNameTest(item as string | RegExp);
    }),
  );
}

/** Registration options as read once, checked, and compiled. */
export interface CheckedOptions {
  /** The options as they were read: a getter or Proxy is never read a second time. */
  readonly values: HookOptions;
  readonly filter: CompiledFilter;
}

const NO_OPTIONS: CheckedOptions = Object.freeze({
  values: Object.freeze({}),
  filter: Object.freeze({ tools: [], agents: [], predicates: [] }),
});

/** Checks registration options (read once) and compiles their filters; throws a TypeError on anything it does not know. */
export function checkOptions(options: HookOptions | undefined): CheckedOptions {
  if (options === undefined) return NO_OPTIONS;
  if (options === null || typeof options !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "hook options must be an object");
  }
  let keys: string[];
  try {
    keys = Object.keys(options);
  } catch (error) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `the hook options could not be read: ${messageOf(error)}`, {
      cause: error,
    });
  }
  checkKeys(Object.fromEntries(keys.map((k) => [k, true])), OPTION_KEYS, "hook option", OPTION_HINTS);
  // Read exactly once: a getter (or Proxy) that answered the check with one value must not hand the chain
  // another (a `kind`, a policy or a time limit that changed would switch a guard off).
  const values = readOnce(options, OPTION_KEYS, "hook option") as HookOptions;
  const { name, priority, onError, timeoutMs, tools, agents } = values;
  if (name !== undefined && (typeof name !== "string" || name === "")) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "`name` must be a non-empty string");
  }
  if (priority !== undefined && !(typeof priority === "number" && Number.isFinite(priority))) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `\`priority\` must be a finite number, got ${showValue(priority)}`,
    );
  }
  if (onError !== undefined && !POLICIES.includes(onError)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `\`onError\` must be "block", "continue" or "throw", got ${showValue(onError)}`,
    );
  }
  if (timeoutMs !== undefined && !(typeof timeoutMs === "number" && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `\`timeoutMs\` must be a positive number of milliseconds, at most 2147483647 (about 24.8 days, the longest a JavaScript timer waits), got ${showValue(timeoutMs)}`,
    );
  }
  const compiled = { tools: [] as NameTest[], agents: [] as NameTest[], predicates: [] as ContextPredicate[] };
  if (tools !== undefined) {
    if (typeof tools === "function") compiled.predicates.push(tools);
    else compiled.tools.push(compileNames(tools, "tools"));
  }
  if (agents !== undefined) {
    if (typeof agents === "function") compiled.predicates.push(agents);
    else compiled.agents.push(compileNames(agents, "agents"));
  }
  return { values: Object.freeze(values), filter: compiled };
}

/** Checks registration options and compiles their filters (see {@link checkOptions}). */
export function compileOptions(options: HookOptions | undefined): CompiledFilter {
  return checkOptions(options).filter;
}

/** Both filters must hold (used when a pack registered with options adds its own). */
export function mergeFilters(a: CompiledFilter, b: CompiledFilter): CompiledFilter {
  return {
    tools: [...a.tools, ...b.tools],
    agents: [...a.agents, ...b.agents],
    predicates: [...a.predicates, ...b.predicates],
  };
}

/** Runs every predicate of a filter against the call. */
export function predicatesPass(predicates: readonly ContextPredicate[], ctx: ToolCallHookContext): boolean {
  for (const p of predicates) if (!p(ctx)) return false;
  return true;
}
