import { definePack, type Pack, type ToolCallHookContext } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { isAccessor } from "../internal/in-place.js";
import { checkBoolean, checkKeys, checkOptionsObject, checkPriority, ownOptions } from "../internal/options.js";
import { selectorToFilter, type ToolSelector } from "../internal/tool-selector.js";

/** Options of {@link queryRules}. */
export interface QueryRulesOptions {
  /** The tools whose input carries the query (names, globs, RegExps, `{ tag }`, tools or a predicate). */
  tools: ToolSelector;
  /** The input key holding the query. Default `"query"`. */
  field?: string;
  /** Fewest characters (code points) after sanitising. Default 1. */
  minLength?: number;
  /** Most characters after sanitising. Default: no limit. */
  maxLength?: number;
  /** Strip whitespace and invisible characters at both ends. Default true. */
  trim?: boolean;
  /** Turn runs of whitespace inside into one space. Default false. */
  collapseWhitespace?: boolean;
  /** Lower-case the query. Default false. */
  lowercase?: boolean;
  /** Block calls without the field. Default true (else they pass unchecked). */
  required?: boolean;
  /** Chain position. Default 0. */
  priority?: number;
}

const PREFIX = "toolware/validate: queryRules";
const OPTION_KEYS = [
  "tools",
  "field",
  "minLength",
  "maxLength",
  "trim",
  "collapseWhitespace",
  "lowercase",
  "required",
  "priority",
];
// Zero-width and other format characters would let "\u200b\u200b\u200b" pass a length check.
const EDGES = /^[\s\p{Cc}\p{Cf}]+|[\s\p{Cc}\p{Cf}]+$/gu;

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

const invalid = (message: string) => packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: ${message}`);

function checkOptions(o: QueryRulesOptions): void {
  checkOptionsObject(o, `${PREFIX}() takes { tools, field?, minLength? }`);
  checkKeys(o, OPTION_KEYS, PREFIX, { aliases: { min: "minLength", max: "maxLength", key: "field" } });
  if (o.tools === undefined) throw invalid("`tools` is required (which tools carry the query)");
  if (o.field !== undefined && (typeof o.field !== "string" || o.field === "")) {
    throw invalid(`\`field\` must be a non-empty string, got ${shown(o.field)}`);
  }
  for (const k of ["minLength", "maxLength"] as const) {
    const v = o[k];
    if (v !== undefined && !(Number.isInteger(v) && v >= 0))
      throw invalid(`\`${k}\` must be a whole number, got ${shown(v)}`);
  }
  if ((o.minLength ?? 1) > (o.maxLength ?? Number.POSITIVE_INFINITY)) {
    throw invalid("`minLength` is greater than `maxLength`");
  }
  for (const k of ["trim", "collapseWhitespace", "lowercase", "required"] as const) checkBoolean(o[k], k, PREFIX);
  checkPriority(o.priority, PREFIX);
}

/**
 * The seed's search-query check: sanitises a string field (trim, optional
 * whitespace collapsing and lower-casing), writes it back in place, and blocks
 * the call when it is missing, not a string, too short or too long.
 *
 * @example
 * ```ts
 * hooks.use(queryRules({ tools: "web_search", field: "query", minLength: 3, lowercase: true }));
 * await hooks.invoke(search, { query: "  AI " }); // blocked: "query is too short (at least 3 characters, got 2)"
 * await hooks.invoke(search, { query: "  TypeScript " }); // the tool receives { query: "typescript" }
 * ```
 */
export function queryRules(options: QueryRulesOptions): Pack {
  options = ownOptions(options, PREFIX);
  checkOptions(options);
  const { field = "query", minLength = 1, maxLength = Number.POSITIVE_INFINITY } = options;
  const { trim = true, collapseWhitespace = false, lowercase = false, required = true } = options;
  const tools = selectorToFilter(options.tools, `${PREFIX}: tools`);

  function checkQuery(ctx: ToolCallHookContext): void {
    const input = ctx.toolInput as Record<string, unknown>;
    // A getter could answer the check with one query and the tool with another.
    if (isAccessor(input, field)) {
      ctx.block(
        `${field} is held by a getter or setter, so the query checked might not be the query used; pass plain data`,
      );
      return;
    }
    const value = Object.hasOwn(input, field) ? input[field] : undefined;
    if (value === undefined || value === null) {
      if (required) ctx.block(`${field} is required`);
      return;
    }
    if (typeof value !== "string") {
      ctx.block(`${field} must be a string, got ${Array.isArray(value) ? "an array" : typeof value}`);
      return;
    }
    let text = trim ? value.replace(EDGES, "") : value;
    if (collapseWhitespace) text = text.replace(/\s+/g, " ");
    if (lowercase) text = text.toLowerCase();
    const length = codePoints(text);
    if (length < minLength) {
      ctx.block(`${field} is too short (at least ${minLength} characters, got ${length})`);
      return;
    }
    if (length > maxLength) {
      ctx.block(`${field} is too long (at most ${maxLength} characters, got ${length})`);
      return;
    }
    if (text !== value) input[field] = text;
  }

  return definePack({
    name: "query-rules",
    hooks: [
      {
        kind: "before",
        fn: checkQuery,
        options: { name: "queryRules", onError: "block", priority: options.priority ?? 0, tools },
      },
    ],
  });
}
