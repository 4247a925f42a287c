import { normalizeName } from "@toolware/core";
import { packTypeError, shown } from "./errors.js";

import { fold, isCanonicalName, strictForm, visibleName } from "./spelling.js";

/** Matches tools carrying a tag (`{ tag: "destructive" }` also matches tools defined with `destructive: true`). */
export interface TagMatcher {
  readonly tag: string;
}

/** Matches tools by their `destructive` flag. */
export interface DestructiveMatcher {
  readonly destructive: boolean;
}

/**
 * Picks tools: an exact name or a glob (`db_*`), compared after `normalizeName`
 * (so `"Delete File"` is `delete_file`); a RegExp, tried on the raw and the
 * normalised name; a tag matcher; or a `destructive` matcher.
 */
export type ToolMatcher = string | RegExp | TagMatcher | DestructiveMatcher;

/** The facts about a tool the matchers look at. */
export interface ToolFacts {
  readonly name: string;
  readonly tags?: readonly string[] | undefined;
  readonly destructive?: boolean | undefined;
}

/** A compiled matcher: `label` says in reasons and warnings which entry matched. */
export interface CompiledMatcher {
  readonly label: string;
  readonly test: (names: NameForms, tool: ToolFacts) => boolean;
}

/** The forms of a name the matchers compare against. */
export interface NameForms {
  readonly raw: string;
  readonly normalized: string;
  /**
   * Look-alike letters (Cyrillic `е`, Greek `ο`, …) folded to ASCII and the name lower-cased before
   * normalising, so odd casing (`delete_filE`) does not split words the way camelCase does.
   */
  readonly skeleton: string;
  /** The skeleton without separators: `d-e_lete file` and `deletefile` both read `deletefile`. */
  readonly compact: string;
  /**
   * For allow lists: `strictForm` of a canonically spelled name (no invisible character, nothing
   * NFKC would change), or undefined for any other name, which no allow list admits.
   */
  readonly strict: string | undefined;
}

const formsCache = new Map<string, NameForms>();

/** The raw, normalised and skeleton forms of a name (cached: names come from a small, fixed set of tools). */
export function nameForms(raw: string): NameForms {
  let forms = formsCache.get(raw);
  if (forms === undefined) {
    const skeleton = normalizeName(fold(raw).toLowerCase());
    forms = {
      raw,
      normalized: normalizeName(raw),
      skeleton,
      compact: skeleton.replaceAll("_", ""),
      strict: isCanonicalName(raw) ? strictForm(raw) : undefined,
    };
    // Tool and role names are few; the bound only protects against callers inventing names per call.
    if (formsCache.size >= 10_000) formsCache.clear();
    formsCache.set(raw, forms);
  }
  return forms;
}

function nameTest(pattern: string): (name: string) => boolean {
  if (!/[*?]/.test(pattern)) return (name) => name === pattern;
  const body = pattern
    .split("")
    .map((ch) => (ch === "*" ? "[^]*" : ch === "?" ? "[^]" : ch.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");
  const re = new RegExp(`^${body}$`);
  return (name) => re.test(name);
}

/**
 * Compiles one matcher. `loose` also compares the skeleton and compact forms, for lists
 * where matching more is the safe direction (deny, warn, approval). Strict lists (allow)
 * admit only canonically spelled names and compare what `normalizeName` gives and, letter for
 * letter, `strictForm` (see spelling.ts): a disguise of an allowed name is not that tool.
 */
export function compileMatcher(matcher: unknown, where: string, loose: boolean): CompiledMatcher {
  const compiled = compileOne(matcher, where, loose);
  if (loose) return compiled;
  const { label, test } = compiled;
  return { label, test: (n, tool) => n.strict !== undefined && test(n, tool) };
}

// A class instance that happens to own a `tag` is no `{ tag }` written by the user: refuse it with the rest.
function isPlainObject(value: unknown): value is object {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function compileOne(matcher: unknown, where: string, loose: boolean): CompiledMatcher {
  if (typeof matcher === "string") {
    const normalized = normalizeName(matcher);
    if (normalized === "") {
      throw packTypeError(
        "TOOLWARE_INVALID_OPTION",
        `${where}: the name ${JSON.stringify(matcher)} matches nothing once normalised`,
      );
    }
    const one = nameTest(normalized);
    if (!loose) {
      if (!isCanonicalName(matcher)) {
        throw packTypeError(
          "TOOLWARE_INVALID_OPTION",
          `${where}: ${JSON.stringify(visibleName(matcher))} is not spelled canonically (invisible, fullwidth or other compatibility characters), so no tool name could match it; write it in plain letters`,
        );
      }
      const strict = nameTest(strictForm(matcher));
      return { label: matcher.trim(), test: (n) => one(n.normalized) && strict(n.strict as string) };
    }
    const compact = nameTest(normalizeName(fold(matcher).toLowerCase()).replaceAll("_", ""));
    return { label: matcher.trim(), test: (n) => one(n.normalized) || one(n.skeleton) || compact(n.compact) };
  }
  if (matcher instanceof RegExp) {
    // A g/y RegExp keeps lastIndex between calls and would alternate between true and false.
    const re =
      matcher.global || matcher.sticky ? new RegExp(matcher.source, matcher.flags.replace(/[gy]/g, "")) : matcher;
    return {
      label: String(matcher),
      test: loose
        ? (n) => re.test(n.raw) || re.test(n.normalized) || re.test(n.skeleton) || re.test(n.compact)
        : (n) => re.test(n.raw) || re.test(n.strict as string),
    };
  }
  if (isPlainObject(matcher)) {
    const keys = Object.keys(matcher);
    if (keys.length === 1 && keys[0] === "tag") {
      const raw = (matcher as TagMatcher).tag;
      if (typeof raw !== "string" || normalizeName(raw) === "") {
        throw packTypeError(
          "TOOLWARE_INVALID_OPTION",
          `${where}: \`{ tag }\` needs a non-empty tag name, got ${shown(raw)}`,
        );
      }
      const tag = normalizeName(raw);
      const viaFlag = tag === "destructive";
      // On an allow list a tag, like a name, counts only in its canonical spelling.
      const strictTag = strictForm(raw);
      const spelled = (t: string): boolean => loose || (isCanonicalName(t) && strictForm(t) === strictTag);
      return {
        label: `tag ${tag}`,
        test: (_n, tool) =>
          (viaFlag && tool.destructive === true) ||
          (Array.isArray(tool.tags) &&
            tool.tags.some((t) => typeof t === "string" && normalizeName(t) === tag && spelled(t))),
      };
    }
    if (keys.length === 1 && keys[0] === "destructive") {
      const flag = (matcher as DestructiveMatcher).destructive;
      if (typeof flag !== "boolean") {
        throw packTypeError(
          "TOOLWARE_INVALID_OPTION",
          `${where}: \`{ destructive }\` takes true or false, got ${shown(flag)}`,
        );
      }
      return {
        label: flag ? "destructive" : "not destructive",
        test: (_n, tool) => (tool.destructive === true) === flag,
      };
    }
  }
  throw packTypeError(
    "TOOLWARE_INVALID_OPTION",
    `${where}: a tool matcher is a name, a glob, a RegExp, { tag: "…" } or { destructive: true }, got ${shown(matcher)}`,
  );
}

/** Compiles a single matcher or a list of them (an empty list is refused: it would silently match nothing). */
export function compileMatchers(list: unknown, where: string, loose: boolean): CompiledMatcher[] {
  const items = Array.isArray(list) ? (list as unknown[]) : [list];
  if (Array.isArray(list) && items.length === 0)
    throw packTypeError("TOOLWARE_INVALID_OPTION", `${where}: the list is empty`);
  return items.map((m, i) => compileMatcher(m, Array.isArray(list) ? `${where}[${i}]` : where, loose));
}

/** The first matcher that matches, or undefined. */
export function firstMatch(
  matchers: readonly CompiledMatcher[],
  names: NameForms,
  tool: ToolFacts,
): CompiledMatcher | undefined {
  for (const m of matchers) if (m.test(names, tool)) return m;
  return undefined;
}
