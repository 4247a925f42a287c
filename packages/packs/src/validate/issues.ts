import type { StandardSchemaV1 } from "@standard-schema/spec";

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
// Issue messages may quote input values: keep them on one line and free of terminal controls.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;

function segmentKey(segment: PropertyKey | StandardSchemaV1.PathSegment): PropertyKey {
  return typeof segment === "object" && segment !== null ? segment.key : segment;
}

/**
 * Renders an issue path the way you would write it in code: `items[0].name`,
 * `["odd key"]`; an empty path is the input itself.
 *
 * @example
 * ```ts
 * formatPath(["items", 0, { key: "name" }]); // "items[0].name"
 * formatPath(undefined); // "(input)"
 * ```
 */
export function formatPath(path: StandardSchemaV1.Issue["path"]): string {
  if (path === undefined || path.length === 0) return "(input)";
  let out = "";
  for (const segment of path) {
    const key = segmentKey(segment);
    if (typeof key === "number") out += `[${key}]`;
    else if (typeof key === "string" && IDENTIFIER.test(key)) out += out === "" ? key : `.${key}`;
    else out += `[${typeof key === "symbol" ? key.toString() : JSON.stringify(key)}]`;
  }
  return out;
}

function clean(message: unknown, max: number): string {
  const text = (typeof message === "string" ? message : String(message)).replace(UNPRINTABLE, " ").trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * One readable line for a list of issues: `path: message` pairs separated by
 * `; `, at most `maxIssues` of them, then how many more there were.
 *
 * @example
 * ```ts
 * formatIssues([{ message: "Too small", path: ["query"] }], 5); // "query: Too small"
 * ```
 */
export function formatIssues(issues: readonly StandardSchemaV1.Issue[], maxIssues: number): string {
  const shown = issues.slice(0, maxIssues).map((i) => `${formatPath(i.path)}: ${clean(i.message, 200)}`);
  const more = issues.length - shown.length;
  if (more > 0) shown.push(`… and ${more} more issue${more === 1 ? "" : "s"}`);
  return shown.join("; ");
}
