import { normalizeName } from "@toolware/core";
import type { AnnotationsMatch, MatchDoc } from "../document.js";
import type { CompiledCondition } from "./cel.js";

/** The MCP adapter's tags for the annotations other than `destructiveHint` (which is `tool.destructive`). */
export const ANNOTATION_TAGS = Object.freeze({
  readOnlyHint: "read-only",
  idempotentHint: "idempotent",
  openWorldHint: "open-world",
} as const);

/** What a rule looks at in a call. `agent`, `crew` and `caller` are undefined when the call has none. */
export interface CallFacts {
  readonly toolName: string;
  readonly tags: readonly string[];
  readonly destructive: boolean;
  readonly agent: string | undefined;
  readonly crew: string | undefined;
  readonly caller: string | undefined;
  readonly args: Readonly<Record<string, unknown>>;
}

/** The facts of a tool alone: what the static part of a match reads (and what its result is cached by). */
export interface ToolFacts {
  readonly name: string;
  readonly tags: readonly string[];
  readonly destructive: boolean;
}

export type NameTest = (name: string) => boolean;

function globRegExp(pattern: string): RegExp {
  let out = "^";
  for (const c of pattern) {
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else out += c.replace(/[.+^${}()|[\]\\/-]/g, "\\$&");
  }
  return new RegExp(`${out}$`, "su");
}

// The core matches a name in two forms (its `nameForms`): normalised, and lower-cased without the camelCase split,
// so "DeLeTe_FiLe" cannot slip past `delete_file`. A rule matches the same names as the core's filter does.
function lowerForm(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9*?]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/**
 * An exact name or glob list: names compare after `normalizeName`, and lower-cased as they are, as the core's
 * `tools` filter does, so `Delete File` and `DeLeTe_FiLe` are `delete_file`; a glob's `*` is any run of characters,
 * `?` one.
 */
export function compileNames(entries: readonly string[]): NameTest {
  const exact = new Set<string>();
  const globs: RegExp[] = [];
  for (const entry of entries) {
    if (/[*?]/.test(entry)) globs.push(globRegExp(normalizeName(entry)));
    else exact.add(normalizeName(entry));
  }
  const seen = new Map<string, boolean>();
  const test = (n: string) => exact.has(n) || globs.some((g) => g.test(n));
  return (name) => {
    let hit = seen.get(name);
    if (hit === undefined) {
      hit = test(normalizeName(name)) || test(lowerForm(name));
      if (seen.size < 4096) seen.set(name, hit);
    }
    return hit;
  };
}

/** Whether a tool has the annotations a match asks for. @internal */
export function annotationsHold(want: AnnotationsMatch, tool: ToolFacts): boolean {
  if (want.destructiveHint !== undefined && tool.destructive !== want.destructiveHint) return false;
  for (const [hint, tag] of Object.entries(ANNOTATION_TAGS)) {
    const expected = want[hint as keyof typeof ANNOTATION_TAGS];
    if (expected !== undefined && tool.tags.includes(tag) !== expected) return false;
  }
  return true;
}

/** A rule's match, split into what the tool alone decides and what each call decides. */
export interface CompiledMatch {
  /** True when the rule can hold for this tool (names, tags, annotations). */
  readonly forTool: (tool: ToolFacts) => boolean;
  /** The per-call part (agents, crews, callers); the condition is separate since it can fail. */
  readonly forCall: ((facts: CallFacts) => boolean) | undefined;
  readonly condition: CompiledCondition | undefined;
  /** The tool names and globs, when the match names them: lets a hook be filtered by name in the core. */
  readonly toolNames: readonly string[] | undefined;
}

/** Compiles the non-CEL part of a match; `condition` is compiled by the caller (it has the file's positions). */
export function compileMatch(match: MatchDoc | undefined, condition: CompiledCondition | undefined): CompiledMatch {
  const tools = match?.tools === undefined ? undefined : compileNames(match.tools);
  const tags = match?.tags;
  const annotations = match?.annotations;
  const agents = match?.agents === undefined ? undefined : compileNames(match.agents);
  const crews = match?.crews === undefined ? undefined : compileNames(match.crews);
  const callers = match?.callers === undefined ? undefined : compileNames(match.callers);
  const forTool = (tool: ToolFacts): boolean =>
    (tools === undefined || tools(tool.name)) &&
    (tags === undefined || tags.some((t) => tool.tags.includes(t))) &&
    (annotations === undefined || annotationsHold(annotations, tool));
  const forCall =
    agents === undefined && crews === undefined && callers === undefined
      ? undefined
      : (facts: CallFacts): boolean =>
          (agents === undefined || (facts.agent !== undefined && agents(facts.agent))) &&
          (crews === undefined || (facts.crew !== undefined && crews(facts.crew))) &&
          (callers === undefined || (facts.caller !== undefined && callers(facts.caller)));
  return { forTool, forCall, condition, toolNames: match?.tools };
}
