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

/** The most problems the message of a {@link PolicyLoadError} lists, one per line. */
const MAX_LINES = 50;

/**
 * A policy file (or object) that cannot be loaded: every issue found, in file order, each with its file, line,
 * column and key path. The message lists them one per line (the first 50), so a terminal or an editor can jump to each.
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
  /** `code` is `TOOLWARE_POLICY_STORE` when a store the file names cannot be made, else `TOOLWARE_POLICY_INVALID`. */
  constructor(
    file: string,
    issues: readonly PolicyLoadIssue[],
    code: `TOOLWARE_POLICY_${string}` = "TOOLWARE_POLICY_INVALID",
  ) {
    const count = issues.length === 1 ? "1 problem" : `${issues.length} problems`;
    // A broken file can have thousands of problems; the message shows the first ones, `issues` keeps them all.
    const shown = issues.slice(0, MAX_LINES).map(formatIssue);
    if (issues.length > MAX_LINES) shown.push(`… and ${issues.length - MAX_LINES} more (see error.issues)`);
    super(code, `policy ${file} has ${count}:\n${shown.join("\n")}`);
    this.file = file;
    this.issues = Object.freeze([...issues]);
  }
}
