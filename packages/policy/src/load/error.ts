import { ToolwareError } from "@toolware/core";
import type { KeyPath, PolicyLoadIssue } from "../document.js";

/** `rules[2].match.tools`: a key path as the messages show it. */
export function formatPath(path: KeyPath): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(part)) out += out === "" ? part : `.${part}`;
    else out += `[${JSON.stringify(part.length > 64 ? `${part.slice(0, 64)}…` : part)}]`;
  }
  return out;
}

/**
 * One issue as one line: `FILE:LINE:COLUMN: path: message (did you mean "x"?)`; an object checked in code has no
 * line and column, so its lines start `FILE: path: …`.
 */
export function formatIssue(issue: PolicyLoadIssue): string {
  const where = issue.line > 0 ? `${issue.file}:${issue.line}:${issue.column}` : issue.file;
  const path = issue.path.length > 0 ? `${formatPath(issue.path)}: ` : "";
  const hint = issue.hint === undefined ? "" : ` (did you mean ${JSON.stringify(issue.hint)}?)`;
  return `${where}: ${path}${issue.message}${hint}`;
}

/**
 * A policy file (or object) that cannot be loaded: every issue found, in file order, each with its file, line,
 * column and key path. The message lists them one per line, so a terminal or an editor can jump to each.
 *
 * @example
 * ```ts
 * try {
 *   parsePolicyText("version: 1\ndefualt: deny\nrules: []\n", { file: "p.yaml" });
 * } catch (error) {
 *   if (error instanceof PolicyLoadError) console.error(error.issues[0]?.line); // 2
 * }
 * ```
 */
export class PolicyLoadError extends ToolwareError {
  override name = "PolicyLoadError";
  /** Every problem found, in the order of the file. */
  readonly issues: readonly PolicyLoadIssue[];
  /** The file the issues are in (`<inline>` for an object). */
  readonly file: string;
  constructor(file: string, issues: readonly PolicyLoadIssue[]) {
    const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
    super("TOOLWARE_POLICY_INVALID", `policy ${file} has ${count}:\n${issues.map(formatIssue).join("\n")}`);
    this.file = file;
    this.issues = Object.freeze([...issues]);
  }
}
