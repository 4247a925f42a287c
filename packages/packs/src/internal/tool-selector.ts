import {
  type ContextPredicate,
  normalizeName,
  type Tool,
  type ToolCallHookContext,
  type ToolFilter,
  toolwareCode,
} from "@toolware/core";
import { packTypeError } from "./errors.js";
import {
  compileMatcher,
  compileMatchers,
  firstMatch,
  nameForms,
  type ToolFacts,
  type ToolMatcher,
} from "./tool-match.js";

/**
 * What every pack's `tools` option takes (docs/packs.md, "Choosing tools"): a name or a glob (`db_*`), a RegExp,
 * `{ tag: "…" }`, `{ destructive: true | false }`, a tool object, a list of any of these (a tool is chosen when
 * one entry matches it), or a predicate `(ctx) => boolean`.
 */
export type ToolSelector =
  | ToolMatcher
  | Tool<never, unknown>
  | readonly (ToolMatcher | Tool<never, unknown>)[]
  | ((ctx: ToolCallHookContext) => boolean);

function isTool(value: unknown): value is Tool<never, unknown> {
  return typeof value === "object" && value !== null && typeof (value as { execute?: unknown }).execute === "function";
}

// `{ tag }` and `{ destructive }` (or a mistyped value of them): what the core's name filter does not know.
function isFlagMatcher(item: unknown): boolean {
  return (
    typeof item === "object" &&
    item !== null &&
    !(item instanceof RegExp) &&
    !isTool(item) &&
    (Object.hasOwn(item, "tag") || Object.hasOwn(item, "destructive"))
  );
}

/** Whether a selector holds `{ tag }` or `{ destructive }`, which make it a predicate rather than a name filter. */
export function hasFlagMatcher(selector: unknown): boolean {
  return Array.isArray(selector) ? selector.some(isFlagMatcher) : isFlagMatcher(selector);
}

// A Proxy or a getter in a selector that throws while it is read is a bad option, not a crash with a foreign error.
function readable(build: () => ToolFilter, where: string): ToolFilter {
  try {
    return build();
  } catch (error) {
    if (toolwareCode(error) !== undefined) throw error;
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${where}: the selector could not be read (it threw while being inspected)`,
    );
  }
}

/** Answers per tool, cached per frozen tool object, so the per-call cost is a map lookup. */
function perTool(test: (toolName: string, tool: ToolFacts) => boolean): ContextPredicate {
  const cache = new WeakMap<object, boolean>();
  return function selectedTool(ctx: ToolCallHookContext): boolean {
    const tool = ctx.tool;
    const hit = cache.get(tool);
    if (hit !== undefined) return hit;
    const result = test(ctx.toolName, tool);
    if (Object.isFrozen(tool)) cache.set(tool, result);
    return result;
  };
}

/**
 * Turns a guard's selector into a hook filter (approval, queryRules, safePath). Names are matched loosely
 * (look-alike letters folded), so a guard selects a tool whenever in doubt.
 */
export function selectorToFilter(selector: ToolSelector, where: string): ToolFilter {
  return readable(() => guardFilter(selector, where), where);
}

function guardFilter(selector: ToolSelector, where: string): ToolFilter {
  if (typeof selector === "function") return selector as ContextPredicate;
  const items = Array.isArray(selector) ? (selector as unknown[]) : [selector];
  const matchers = compileMatchers(
    items.map((item) => (isTool(item) ? item.name : item)),
    where,
    true,
  );
  return perTool((name, tool) => firstMatch(matchers, nameForms(name), tool) !== undefined);
}

// The core's name forms: normalised, and lower-cased without the camelCase split ("DeLeTe" is not "de_le_te").
function coreForms(name: string): readonly string[] {
  const plain = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9*?]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return [normalizeName(name), plain];
}

function globTest(pattern: string): (name: string) => boolean {
  if (!/[*?]/.test(pattern)) return (name) => name === pattern;
  const body = pattern.replaceAll("*", ".*").replaceAll("?", ".");
  const re = new RegExp(`^${body}$`);
  return (name) => re.test(name);
}

// A name, glob, RegExp or tool compared as the core's `tools` filter compares it.
function coreNameTest(item: unknown, where: string): (toolName: string) => boolean {
  if (item instanceof RegExp) {
    const re = item.global || item.sticky ? new RegExp(item.source, item.flags.replace(/[gy]/g, "")) : item;
    return (name) => re.test(name) || re.test(normalizeName(name));
  }
  const text = isTool(item) ? item.name : item;
  // compileMatcher refuses what is no name (and an empty one) with the vocabulary's own message.
  if (typeof text !== "string" || normalizeName(text) === "") compileMatcher(text, where, true);
  const test = globTest(normalizeName(text as string));
  return (name) => coreForms(name).some(test);
}

/**
 * Turns the `tools` option of a pack that is no guard (cache, retry, rate-limit, …) into a hook filter. Names,
 * globs, RegExps and tools are compared as the core's `tools` filter compares them, and a selector made of only
 * those is handed to the core as it is, which decides it once per chain. With `{ tag }` or `{ destructive }` in
 * it, the selector becomes a predicate, answered once per tool.
 */
export function toolFilter(selector: ToolSelector, where: string): ToolFilter {
  return readable(() => plainFilter(selector, where), where);
}

function plainFilter(selector: ToolSelector, where: string): ToolFilter {
  if (typeof selector === "function") return selector as ContextPredicate;
  const list = Array.isArray(selector);
  const items = list ? (selector as unknown[]) : [selector];
  if (!hasFlagMatcher(selector)) {
    // The core would refuse a bad name only when the pack is registered; the factory promises to refuse it.
    if (list && items.length === 0) compileMatchers(items, where, true);
    items.forEach((item, i) => {
      if (!(item instanceof RegExp) && !isTool(item)) coreNameTest(item, list ? `${where}[${i}]` : where);
    });
    return selector as ToolFilter;
  }
  const tests = items.map((item, i): ((name: string, tool: ToolFacts) => boolean) => {
    const at = list ? `${where}[${i}]` : where;
    if (!isFlagMatcher(item)) {
      const test = coreNameTest(item, at);
      return (name) => test(name);
    }
    const matcher = compileMatcher(item, at, true);
    return (name, tool) => matcher.test(nameForms(name), tool);
  });
  return perTool((name, tool) => tests.some((t) => t(name, tool)));
}
