import { type ASTNode, Environment } from "@marcbachmann/cel-js";
import { messageOf } from "@toolware/core";
import { type ArgsBudget, projectArgs } from "./project.js";

/** The limits that bound what one condition can cost: its size at load, the arguments it walks per call. */
export const CEL_LIMITS = Object.freeze({
  /** AST nodes of one expression. */
  maxAstNodes: 512,
  /** Nesting of calls, selects and literals. */
  maxDepth: 32,
  /** Characters of one expression. */
  maxChars: 4096,
  /** Comprehensions (`all`, `exists`, `map`, …) inside one another: one level, so a walk is linear in the input. */
  maxComprehensionDepth: 1,
  /** Values (each string, number, list, map …) the arguments handed to a condition may hold. */
  maxArgNodes: 10_000,
  /** Characters of all the strings handed to a condition together. */
  maxArgChars: 1_000_000,
  /** Nesting of the arguments handed to a condition. */
  maxArgDepth: 32,
});

const COMPREHENSIONS = new Set(["all", "exists", "exists_one", "map", "filter"]);

const env = new Environment({
  unlistedVariablesAreDyn: false,
  homogeneousAggregateLiterals: false,
  limits: { maxAstNodes: CEL_LIMITS.maxAstNodes, maxDepth: CEL_LIMITS.maxDepth, maxListElements: 256 },
})
  .registerVariable("args", "map")
  .registerVariable("tool", "map")
  .registerVariable("agent", "string")
  .registerVariable("crew", "string")
  .registerVariable("caller", "string");

/** What a condition sees of a call. `agent`, `crew` and `caller` are `""` when the call has none. */
export interface CelFacts {
  readonly args: Readonly<Record<string, unknown>>;
  readonly tool: { readonly name: string; readonly tags: readonly string[]; readonly destructive: boolean };
  readonly agent: string;
  readonly crew: string;
  readonly caller: string;
}

/** A compiled condition: evaluates to true or false, or throws (a policy then fails closed). */
export interface CompiledCondition {
  readonly source: string;
  /** The top-level argument keys the expression reads, or `undefined` when it reads `args` as a whole. */
  readonly keys: readonly string[] | undefined;
  /**
   * Evaluates the condition on a call: copies the arguments it reads (within {@link CEL_LIMITS}), then runs the
   * expression. Throws when the arguments are over the limits, the expression errors or yields no boolean.
   */
  evaluate(facts: CelFacts): boolean;
}

interface Activation {
  args: Readonly<Record<string, unknown>>;
  tool: CelFacts["tool"];
  agent: string;
  crew: string;
  caller: string;
}

const BUDGET: ArgsBudget = {
  maxNodes: CEL_LIMITS.maxArgNodes,
  maxChars: CEL_LIMITS.maxArgChars,
  maxDepth: CEL_LIMITS.maxArgDepth,
};

// Patterns whose backtracking can explode: a quantified group holding a quantifier or an alternation,
// or a back-reference. `matches` runs JavaScript's backtracking engine, so these are refused at load.
function regexProblem(pattern: string): string | undefined {
  if (/\\[1-9]|\\k</.test(pattern)) return "back-references are not allowed";
  const stack: { risky: boolean }[] = [];
  let escaped = false;
  let inClass = false;
  let lastGroupRisky = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (escaped) {
      escaped = false;
      lastGroupRisky = false;
      continue;
    }
    if (c === "\\") {
      escaped = true;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "(") stack.push({ risky: false });
    else if (c === ")") {
      lastGroupRisky = stack.pop()?.risky ?? false;
      const parent = stack[stack.length - 1];
      if (parent !== undefined && lastGroupRisky) parent.risky = true;
      const next = pattern[i + 1];
      if (lastGroupRisky && (next === "*" || next === "+" || next === "?" || next === "{")) {
        return "a repeated group may not hold a repetition or an alternation (it can take exponential time)";
      }
    } else if (c === "*" || c === "+" || c === "{" || c === "|" || (c === "?" && pattern[i - 1] !== "(")) {
      const top = stack[stack.length - 1];
      if (top !== undefined) top.risky = true;
    }
  }
  return undefined;
}

interface Walk {
  keys: Set<string> | undefined;
  problem: string | undefined;
}

function walk(node: ASTNode, depth: number, out: Walk): void {
  if (out.problem !== undefined) return;
  switch (node.op) {
    case "value":
      return;
    case "id":
      if (node.args === "args") out.keys = undefined;
      return;
    case ".":
    case ".?": {
      const [target, key] = node.args;
      if (target.op === "id" && target.args === "args") out.keys?.add(key);
      else walk(target, depth, out);
      return;
    }
    case "[]":
    case "[?]": {
      const [target, index] = node.args;
      if (target.op === "id" && target.args === "args" && index.op === "value" && typeof index.args === "string") {
        out.keys?.add(index.args);
      } else walk(target, depth, out);
      walk(index, depth, out);
      return;
    }
    case "call":
      if (node.args[0] === "matches") checkMatches(node.args[1][1], out);
      for (const arg of node.args[1]) walk(arg, depth, out);
      return;
    case "rcall": {
      const [name, receiver, args] = node.args;
      let inner = depth;
      if (COMPREHENSIONS.has(name)) {
        inner = depth + 1;
        if (inner > CEL_LIMITS.maxComprehensionDepth) {
          out.problem = `comprehensions (${[...COMPREHENSIONS].join(", ")}) may not be nested: the cost would grow with the square of the input`;
          return;
        }
      }
      if (name === "matches") checkMatches(args[0], out);
      walk(receiver, depth, out);
      for (const arg of args) walk(arg, inner, out);
      return;
    }
    case "list":
      for (const item of node.args) walk(item, depth, out);
      return;
    case "map":
      for (const [k, v] of node.args) {
        walk(k, depth, out);
        walk(v, depth, out);
      }
      return;
    case "!_":
    case "-_":
      walk(node.args, depth, out);
      return;
    default:
      for (const arg of node.args as readonly ASTNode[]) walk(arg, depth, out);
  }
}

function checkMatches(pattern: ASTNode | undefined, out: Walk): void {
  if (pattern === undefined || pattern.op !== "value" || typeof pattern.args !== "string") {
    out.problem = "matches() takes a string literal pattern, so it can be checked at load";
    return;
  }
  const problem = regexProblem(pattern.args);
  if (problem !== undefined) out.problem = `matches(${JSON.stringify(pattern.args)}): ${problem}`;
}

/**
 * Compiles a CEL condition once, as a policy's `match.when` is: type-checked against the variables `args`,
 * `tool`, `agent`, `crew` and `caller`, refused when it could cost more than linear time in its input (nested
 * comprehensions, a `matches` pattern that can backtrack exponentially) or is over {@link CEL_LIMITS}. Throws an
 * `Error` saying what is wrong.
 *
 * @example
 * ```ts
 * const escapes = compileCondition('has(args.path) && args.path.contains("..")');
 * escapes.evaluate({ args: { path: "../etc" }, tool: { name: "read_file", tags: [], destructive: false }, agent: "", crew: "", caller: "" }); // true
 * ```
 */
export function compileCondition(source: string): CompiledCondition {
  if (typeof source !== "string") throw new Error("a condition is a string of CEL");
  if (source.length > CEL_LIMITS.maxChars) {
    throw new Error(`the expression has ${source.length} characters, more than ${CEL_LIMITS.maxChars}`);
  }
  let parsed: ReturnType<Environment["parse"]>;
  try {
    parsed = env.parse(source);
  } catch (error) {
    throw new Error(messageOf(error).split("\n")[0]);
  }
  const checked = parsed.check();
  if (!checked.valid) throw new Error((checked.error?.message ?? "type error").split("\n")[0]);
  if (checked.type !== "bool" && checked.type !== "dyn") {
    throw new Error(`the expression yields ${checked.type}, not a boolean`);
  }
  const w: Walk = { keys: new Set(), problem: undefined };
  walk(parsed.ast, 0, w);
  if (w.problem !== undefined) throw new Error(w.problem);
  const keys = w.keys === undefined ? undefined : Object.freeze([...w.keys]);
  // A fresh activation per evaluation, like a bare call makes: refilling one long-lived object costs more (each
  // store of a young value into an old object goes through the write barrier), and a nested evaluation (a
  // caller's getter reading `facts` could start one) can never see another's values.
  return Object.freeze({
    source,
    keys,
    evaluate(facts: CelFacts): boolean {
      const a: Activation = {
        args: projectArgs(facts.args, keys, BUDGET),
        tool: facts.tool,
        agent: facts.agent,
        crew: facts.crew,
        caller: facts.caller,
      };
      const value: unknown = parsed(a);
      if (typeof value !== "boolean") throw new Error(`the condition yielded ${typeof value}, not a boolean`);
      return value;
    },
  });
}
