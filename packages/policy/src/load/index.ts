import { closestKey, ToolwareError, ToolwareTypeError } from "@toolware/core";
import type { KeyPath, LoadedDocument, PolicyDocument, PolicyLoadIssue, SourceSpan } from "../document.js";
import { Checker, type CheckIssue, INVALID } from "./check.js";
import { PolicyLoadError } from "./error.js";
import { treeFromObject } from "./from-object.js";
import { treeFromYaml } from "./from-yaml.js";
import { policySpec } from "./spec.js";
import type { Pos, Tree, TreeIssue } from "./tree.js";

export { formatIssue, formatPath, PolicyLoadError } from "./error.js";

/** The largest policy file (or text) the loader reads: 1 MiB. A bigger one is refused before it is parsed. */
export const MAX_POLICY_BYTES = 1024 * 1024;

/** Options of {@link parsePolicyText}. */
export interface ParsePolicyOptions {
  /** The name errors show (a path, usually). Default `<text>`. */
  readonly file?: string;
  /** `json` reports JSON syntax errors as JSON; default: by the file's extension (`.json`), else `yaml`. */
  readonly format?: "yaml" | "json";
}

const OPTION_KEYS = ["file", "format"];

function toIssue(file: string, issue: CheckIssue | TreeIssue): PolicyLoadIssue {
  const base = {
    file,
    line: issue.pos.line,
    column: issue.pos.column,
    path: Object.freeze([...issue.path]),
    message: issue.message,
  };
  return Object.freeze("hint" in issue && issue.hint !== undefined ? { ...base, hint: issue.hint } : base);
}

function fail(file: string, issues: readonly (CheckIssue | TreeIssue)[]): never {
  const sorted = [...issues].sort((a, b) => a.pos.line - b.pos.line || a.pos.column - b.pos.column);
  throw new PolicyLoadError(
    file,
    sorted.map((i) => toIssue(file, i)),
  );
}

function checkTree(tree: Tree, file: string, earlier: readonly TreeIssue[]): LoadedDocument {
  const checker = new Checker();
  const value = checker.check(tree, policySpec, [], []);
  const issues = [...earlier, ...checker.issues];
  if (issues.length > 0 || value === INVALID) fail(file, issues);
  const positions = checker.positions;
  const locate = (path: KeyPath): SourceSpan | undefined => {
    for (let n = path.length; n >= 0; n--) {
      const pos = positions.get(JSON.stringify(path.slice(0, n)));
      if (pos !== undefined)
        return pos.line > 0 ? Object.freeze({ file, line: pos.line, column: pos.column }) : undefined;
    }
    return undefined;
  };
  return Object.freeze({ document: value as PolicyDocument, file, locate });
}

function wholeFile(message: string, pos: Pos = { line: 1, column: 1 }): TreeIssue {
  return { pos, path: [], message };
}

function sizeOf(text: string): number {
  // At least one byte a character: a text longer than the limit is refused without encoding it.
  return text.length > MAX_POLICY_BYTES ? text.length : new TextEncoder().encode(text).byteLength;
}

function tooLarge(bytes: number): TreeIssue {
  const mb = (bytes / (1024 * 1024)).toFixed(1);
  return wholeFile(
    `the file is ${mb} MiB (${bytes} bytes); a policy file is at most ${MAX_POLICY_BYTES} bytes (1 MiB)`,
  );
}

// Where a JSON.parse error is: Node 22 says "at position N"; Node 20 does not, and the YAML parser's first
// error (which reads JSON too) is the best position left.
function jsonIssue(text: string, error: unknown): TreeIssue {
  const message = error instanceof Error ? error.message : String(error);
  const at = /position (\d+)/.exec(message);
  let pos: Pos | undefined;
  if (at !== null) {
    const offset = Number(at[1]);
    const before = text.slice(0, offset);
    pos = { line: before.split("\n").length, column: offset - before.lastIndexOf("\n") };
  } else {
    pos = treeFromYaml(text).issues[0]?.pos;
  }
  return wholeFile(`not valid JSON: ${message.replace(/\s*\(line \d+ column \d+\)$/, "")}`, pos);
}

function checkOptions(options: unknown): ParsePolicyOptions {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "parsePolicyText() takes options { file?, format? }");
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      const close = closestKey(key, OPTION_KEYS);
      const hint = close === undefined ? "" : `did you mean \`${close}\`? `;
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `parsePolicyText(): unknown option ${JSON.stringify(key)} (${hint}expected one of: file, format)`,
      );
    }
  }
  const { file, format } = options as ParsePolicyOptions;
  if (file !== undefined && (typeof file !== "string" || file === "")) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "parsePolicyText(): `file` must be a non-empty string");
  }
  if (format !== undefined && format !== "yaml" && format !== "json") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", 'parsePolicyText(): `format` must be "yaml" or "json"');
  }
  return { file, format };
}

/**
 * Parses and checks the text of a policy file (YAML, or JSON). Throws one {@link PolicyLoadError} listing every
 * problem, each with its file, line, column and key path.
 *
 * @example
 * ```ts
 * const loaded = parsePolicyText("version: 1\ndefault: deny\nrules: []\n", { file: "toolware.policy.yaml" });
 * loaded.document.default; // "deny"
 * ```
 */
export function parsePolicyText(text: string, options: ParsePolicyOptions = {}): LoadedDocument {
  const { file = "<text>", format: given } = checkOptions(options);
  if (typeof text !== "string") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `parsePolicyText(): the text must be a string, got ${typeof text}`,
    );
  }
  const bytes = sizeOf(text);
  if (bytes > MAX_POLICY_BYTES) fail(file, [tooLarge(bytes)]);
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const format = given ?? (/\.json$/i.test(file) ? "json" : "yaml");
  if (format === "json") {
    try {
      JSON.parse(body);
    } catch (error) {
      fail(file, [jsonIssue(body, error)]);
    }
  }
  const { tree, issues } = treeFromYaml(body);
  if (tree === undefined) fail(file, issues);
  return checkTree(tree, file, issues);
}

/**
 * Reads a policy file (UTF-8, at most {@link MAX_POLICY_BYTES}) and checks it as {@link parsePolicyText} does;
 * `.json` files are read as JSON. A file that cannot be read at all is a `TOOLWARE_POLICY_UNREADABLE` error.
 *
 * @example
 * ```ts
 * const loaded = await readPolicyFile("toolware.policy.yaml");
 * ```
 */
export async function readPolicyFile(path: string): Promise<LoadedDocument> {
  if (typeof path !== "string" || path === "") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "readPolicyFile() takes a file path (a non-empty string)");
  }
  const { readBounded } = await import("./read-file.js");
  let read: { readonly bytes: Uint8Array; readonly size: number };
  try {
    read = await readBounded(path, MAX_POLICY_BYTES);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolwareError("TOOLWARE_POLICY_UNREADABLE", `cannot read policy file ${path}: ${reason}`, {
      cause: error,
    });
  }
  if (read.size > MAX_POLICY_BYTES) fail(path, [tooLarge(read.size)]);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
  } catch {
    fail(path, [wholeFile("the file is not UTF-8 text")]);
  }
  return parsePolicyText(text, { file: path });
}

/**
 * Checks a policy given as an object in code (what `loadPolicy({ … })` passes), with the same rules as a file.
 * Issues name the key path; there are no lines.
 *
 * @example
 * ```ts
 * const loaded = checkPolicyObject({ version: 1, default: "allow", rules: [] });
 * ```
 */
export function checkPolicyObject(object: unknown, file = "<inline>"): LoadedDocument {
  if (typeof file !== "string" || file === "") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "checkPolicyObject(): `file` must be a non-empty string");
  }
  return checkTree(treeFromObject(object), file, []);
}
