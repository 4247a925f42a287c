import { closestKey } from "@toolware/core";
import type { ExplainCall, PolicyLoadIssue } from "@toolware/policy";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument, type YAMLMap } from "yaml";
import { ANNOTATION_NAMES } from "./call.js";

/** The decisions a case can expect. */
export const DECISIONS = ["allow", "deny", "approve"] as const;

/** One case of a CASES file: a call, and what the policy should decide for it. */
export interface PolicyCase {
  /** The case's `name`, else `case N` (1-based). */
  readonly name: string;
  readonly line: number;
  readonly column: number;
  readonly call: ExplainCall;
  readonly expect: (typeof DECISIONS)[number];
  /** The deciding rule's name (`default` for the file's default, `cedar:<ids>` for Cedar). */
  readonly rule?: string;
  /** A piece of text the reason must contain. */
  readonly reason?: string;
}

const CASE_KEYS = [
  "name",
  "tool",
  "agent",
  "crew",
  "caller",
  "tags",
  "annotations",
  "args",
  "expect",
  "rule",
  "reason",
];
const STRINGS = ["name", "tool", "agent", "crew", "caller", "rule", "reason"] as const;
const REQUIRED = ["tool", "expect"] as const;
const MAX_ALIASES = 100;

type Path = (string | number)[];

class CaseReader {
  readonly issues: PolicyLoadIssue[] = [];
  readonly #lines = new LineCounter();

  constructor(readonly file: string) {}

  /** The issues in file order (a stable sort: issues at one place keep their order). */
  sorted(): PolicyLoadIssue[] {
    return [...this.issues].sort((a, b) => a.line - b.line || a.column - b.column);
  }

  get lines(): LineCounter {
    return this.#lines;
  }

  at(offset: number, path: Path, message: string, hint?: string): void {
    const { line, col } = this.#lines.linePos(offset);
    const issue = { file: this.file, line, column: col, path, message };
    this.issues.push(hint === undefined ? issue : { ...issue, hint });
  }

  node(node: Node | null, path: Path, message: string, fallback: number): void {
    this.at(node?.range?.[0] ?? fallback, path, message);
  }

  /** The keys of a mapping, each known one once; unknown keys are issues with a hint. */
  keys(map: YAMLMap, path: Path, known: readonly string[]): Map<string, Node | null> {
    const out = new Map<string, Node | null>();
    for (const pair of map.items) {
      const key = pair.key as Node | null;
      const offset = key?.range?.[0] ?? map.range?.[0] ?? 0;
      const name = isScalar(key) && typeof key.value === "string" ? key.value : undefined;
      if (name === undefined || !known.includes(name)) {
        const shown = name ?? String(isScalar(key) ? key.value : "a non-string key");
        const hint = name === undefined ? undefined : closestKey(name, known);
        this.at(offset, path, `unknown key ${JSON.stringify(shown)} (known keys: ${known.join(", ")})`, hint);
        continue;
      }
      out.set(name, pair.value as Node | null);
    }
    return out;
  }
}

function stringOf(r: CaseReader, node: Node | null, path: Path, fallback: number): string | undefined {
  if (isScalar(node) && typeof node.value === "string" && node.value !== "") return node.value;
  r.node(node, path, "must be a non-empty string", fallback);
  return undefined;
}

function readCase(r: CaseReader, node: Node | null, i: number, js: unknown, start: number): PolicyCase | undefined {
  const path: Path = ["cases", i];
  if (!isMap(node)) {
    r.node(node, path, "a case must be a mapping (tool, expect, …)", start);
    return undefined;
  }
  const before = r.issues.length;
  const at = node.range?.[0] ?? start;
  const keys = r.keys(node, path, CASE_KEYS);
  for (const key of REQUIRED) if (!keys.has(key)) r.at(at, path, `missing key "${key}"`);
  const values: Record<string, unknown> = {};
  for (const key of STRINGS) {
    if (keys.has(key)) values[key] = stringOf(r, keys.get(key) ?? null, [...path, key], at);
  }
  const expect = keys.get("expect");
  if (expect !== undefined && typeof values.expect !== "string") {
    const v = isScalar(expect) ? expect.value : undefined;
    if (typeof v === "string" && (DECISIONS as readonly string[]).includes(v)) values.expect = v;
    else {
      const hint = typeof v === "string" ? closestKey(v, DECISIONS) : undefined;
      r.at(expect?.range?.[0] ?? at, [...path, "expect"], `must be one of: ${DECISIONS.join(", ")}`, hint);
    }
  }
  const tags = keys.get("tags");
  if (tags !== undefined) {
    if (isSeq(tags) && tags.items.every((t) => isScalar(t) && typeof t.value === "string" && t.value !== "")) {
      values.tags = tags.items.map((t) => (t as { value: string }).value);
    } else r.node(tags, [...path, "tags"], "must be a list of non-empty strings", at);
  }
  const annotations = keys.get("annotations");
  if (annotations !== undefined) {
    if (isMap(annotations)) {
      const out: Record<string, boolean> = {};
      for (const [name, value] of r.keys(annotations, [...path, "annotations"], ANNOTATION_NAMES)) {
        if (isScalar(value) && typeof value.value === "boolean") out[name] = value.value;
        else r.node(value, [...path, "annotations", name], "must be true or false", at);
      }
      values.annotations = out;
    } else r.node(annotations, [...path, "annotations"], "must be a mapping of MCP annotations to true or false", at);
  }
  const args = keys.get("args");
  if (args !== undefined) {
    if (isMap(args)) values.args = (js as { args?: unknown } | undefined)?.args;
    else r.node(args, [...path, "args"], "must be a mapping (the tool's arguments)", at);
  }
  if (r.issues.length > before) return undefined;
  const { line, col } = r.lines.linePos(at);
  const { name, tool, agent, crew, caller, rule, reason } = values as Record<string, string | undefined>;
  const call = Object.fromEntries(
    Object.entries({
      tool,
      agent,
      crew,
      caller,
      tags: values.tags,
      annotations: values.annotations,
      args: values.args,
    }).filter(([, v]) => v !== undefined),
  ) as unknown as ExplainCall;
  return {
    name: name ?? `case ${i + 1}`,
    line,
    column: col,
    call,
    expect: values.expect as PolicyCase["expect"],
    ...(rule === undefined ? {} : { rule }),
    ...(reason === undefined ? {} : { reason }),
  };
}

/**
 * Reads a CASES file (YAML or JSON): `cases:`, a list of calls with the decision each should get. Checked
 * strictly: every problem is an issue with its line, column and key path, unknown keys with a "did you mean" hint.
 */
export function parseCases(text: string, file: string): { cases: PolicyCase[]; issues: PolicyLoadIssue[] } {
  const r = new CaseReader(file);
  const doc = parseDocument(text, { lineCounter: r.lines, uniqueKeys: true, prettyErrors: false });
  for (const e of [...doc.errors, ...doc.warnings]) r.at(e.pos[0], [], e.message.split("\n")[0] as string);
  if (r.issues.length > 0) return { cases: [], issues: r.sorted() };
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: MAX_ALIASES });
  } catch (error) {
    r.at(0, [], error instanceof Error ? error.message : String(error));
    return { cases: [], issues: r.sorted() };
  }
  const root = doc.contents;
  if (!isMap(root)) {
    r.node(
      root,
      [],
      "a CASES file is a mapping with one key, `cases`: a list of calls and their expected decisions",
      0,
    );
    return { cases: [], issues: r.sorted() };
  }
  const list = r.keys(root, [], ["cases"]).get("cases");
  const cases: PolicyCase[] = [];
  if (!isSeq(list)) {
    if (list === undefined)
      r.at(root.range?.[0] ?? 0, [], 'missing key "cases" (a list of calls and their expected decisions)');
    else r.node(list, ["cases"], "must be a list of cases", root.range?.[0] ?? 0);
    return { cases, issues: r.sorted() };
  }
  const jsCases = (js as { cases: unknown[] }).cases;
  list.items.forEach((item, i) => {
    const one = readCase(r, item as Node | null, i, jsCases[i], list.range?.[0] ?? 0);
    if (one !== undefined) cases.push(one);
  });
  if (list.items.length === 0) r.node(list, ["cases"], "is empty: a test needs at least one case", 0);
  return r.issues.length > 0 ? { cases: [], issues: r.sorted() } : { cases, issues: [] };
}
