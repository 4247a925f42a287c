import { ToolwareTypeError } from "./errors.js";

/**
 * Normalises a tool (or role) name the way CrewAI matches them, so that
 * `"Delete File"`, `"deleteFile"` and `"delete-file"` all become `delete_file`.
 *
 * @example
 * ```ts
 * normalizeName("Delete File"); // "delete_file"
 * normalizeName("fetchURLContent"); // "fetch_url_content"
 * ```
 */
export function normalizeName(name: string): string {
  return (
    name
      .normalize("NFKD")
      // combining marks left by NFKD: "é" -> "e"
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
      .toLowerCase()
      .replace(/[^a-z0-9*?]+/g, "_")
      .replace(/^_+|_+$/g, "")
  );
}

/**
 * The forms a name is matched under: its normalised form, and a plain lowercase
 * form, so that odd casing ("DeLeTe_FiLe") cannot slip past a filter that the
 * camelCase split would otherwise turn into "de_le_te_fi_le".
 */
export function nameForms(name: string): readonly string[] {
  const normalized = normalizeName(name);
  const plain = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9*?]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return plain === normalized ? [normalized] : [normalized, plain];
}

const cache = new Map<string, RegExp | null>();

/** Compiles a glob over normalised names; `null` when the pattern has no wildcard. */
function globToRegExp(pattern: string): RegExp | null {
  let re = cache.get(pattern);
  if (re !== undefined) return re;
  if (!/[*?]/.test(pattern)) {
    re = null;
  } else {
    const body = pattern
      .split("")
      .map((ch) => (ch === "*" ? ".*" : ch === "?" ? "." : ch.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
      .join("");
    re = new RegExp(`^${body}$`);
  }
  cache.set(pattern, re);
  return re;
}

/** Tests a name against an exact name, a glob or a RegExp. */
export type NameTest = (raw: string, normalized: string) => boolean;

/** Builds a test from a string (exact or glob, compared after normalising) or a RegExp (tried on both forms). */
export function compileNameTest(matcher: string | RegExp): NameTest {
  if (matcher instanceof RegExp) {
    // a stateful (g/y) RegExp would alternate between true and false across calls
    const re =
      matcher.global || matcher.sticky ? new RegExp(matcher.source, matcher.flags.replace(/[gy]/g, "")) : matcher;
    return (raw, normalized) => re.test(raw) || re.test(normalized);
  }
  if (typeof matcher !== "string") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_FILTER",
      `a name filter must be a string, a RegExp or a tool, got ${matcher === null ? "null" : typeof matcher}`,
    );
  }
  const normalized = normalizeName(matcher);
  if (normalized === "") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_FILTER",
      `the name filter ${JSON.stringify(matcher)} matches nothing once normalised (names keep only ASCII letters, digits and the wildcards * and ?)`,
    );
  }
  const glob = globToRegExp(normalized);
  if (glob === null) return (_raw, name) => name === normalized;
  return (_raw, name) => glob.test(name);
}
