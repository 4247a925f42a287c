import { resolve } from "node:path";
import type { PolicyPack } from "@toolware/policy";
import { defineCommand, EXIT } from "../kit.js";
import { type PolicyCase, parseCases } from "./cases.js";
import { modeOption, namer, openPolicy, printIssues } from "./load.js";
import { MAX_CASES_BYTES, readText } from "./read.js";

/** What one case got, and where it differs from what it expected. */
export interface CaseResult {
  readonly name: string;
  readonly at: string;
  readonly passed: boolean;
  readonly expected: { readonly decision: string; readonly rule?: string; readonly reason?: string };
  readonly actual: { readonly decision: string; readonly rule: string; readonly reason: string | undefined };
  /** The fields that differ: `decision`, `rule`, `reason`. */
  readonly failed: readonly string[];
}

function run(pack: PolicyPack, c: PolicyCase, at: string): CaseResult {
  // A case is checked data, so explain() decides it: arguments it cannot read deny (fail closed), never throw.
  const e = pack.explain(c.call);
  const failed: string[] = [];
  if (e.effect !== c.expect) failed.push("decision");
  if (c.rule !== undefined && e.rule !== c.rule) failed.push("rule");
  if (c.reason !== undefined && !(e.reason ?? "").includes(c.reason)) failed.push("reason");
  const expected = { decision: c.expect, ...(c.rule === undefined ? {} : { rule: c.rule }) };
  return {
    name: c.name,
    at,
    passed: failed.length === 0,
    expected: c.reason === undefined ? expected : { ...expected, reason: c.reason },
    actual: { decision: e.effect, rule: e.rule, reason: e.reason },
    failed,
  };
}

function diff(r: CaseResult): string {
  const rows: [string, string, string][] = [["decision", r.expected.decision, r.actual.decision]];
  if (r.expected.rule !== undefined) rows.push(["rule", r.expected.rule, r.actual.rule]);
  if (r.expected.reason !== undefined) {
    rows.push(["reason", `contains ${JSON.stringify(r.expected.reason)}`, JSON.stringify(r.actual.reason ?? null)]);
  }
  if (!r.failed.includes("rule") && r.expected.rule === undefined) rows.push(["rule", "(any)", r.actual.rule]);
  let out = `FAIL ${r.name} (${r.at})\n`;
  for (const [field, want, got] of rows) {
    const mark = r.failed.includes(field) ? "✗" : " ";
    out += `  ${mark} ${field.padEnd(8)}  expected ${want}\n  ${" ".repeat(10)}  actual   ${got}\n`;
  }
  return out;
}

/** `toolware policy test <file> <cases>`: runs a table of calls against a policy and diffs each decision. */
export const test = defineCommand({
  name: "test",
  summary: "test a policy against a table of calls and the decisions they should get",
  description: [
    "Decides every call of a CASES file (YAML or JSON) with the policy, without running anything, and compares the",
    "decision (allow, deny, approve), and when a case names them the deciding rule and a piece of the reason. Prints",
    "PASS or a diff (expected against actual) per case, then a count. The CASES file is checked strictly: every",
    "problem is reported as FILE:LINE:COLUMN, unknown keys with a hint. A case:",
    "  cases:",
    "    - name: juniors cannot delete",
    "      tool: delete_file",
    "      agent: junior",
    '      args: { path: "notes.txt" }',
    "      expect: deny",
    "      rule: juniors-cannot-delete",
    "      reason: cannot delete",
  ].join("\n"),
  args: ["file", "cases"],
  options: {
    mode: { type: "string", value: "MODE", description: "enforce or shadow: decide every rule in this mode" },
    json: { type: "boolean", description: "print the results as JSON" },
  },
  failure: "a case failed, or the policy or the CASES file has problems (listed on stderr) or cannot be read",
  async run({ positionals, options }, io) {
    const mode = modeOption(options.mode);
    const given = positionals[1] as string;
    const read = await readText(resolve(io.cwd, given), MAX_CASES_BYTES);
    if ("problem" in read) {
      io.err(`${given}: cannot read the cases file: ${read.problem.replaceAll(resolve(io.cwd, given), given)}\n`);
      return EXIT.failure;
    }
    const { cases, issues } = parseCases(read.text, given);
    if (issues.length > 0) {
      printIssues(io, issues, namer(io, given));
      return EXIT.failure;
    }
    const opened = await openPolicy(io, positionals[0] as string, mode);
    if (typeof opened === "number") return opened;
    const results = cases.map((c) => run(opened.pack, c, `${given}:${c.line}:${c.column}`));
    const failed = results.filter((r) => !r.passed).length;
    if (options.json) io.out(`${JSON.stringify({ passed: results.length - failed, failed, results }, null, 2)}\n`);
    else {
      for (const r of results) io.out(r.passed ? `PASS ${r.name}\n` : diff(r));
      const count = `${results.length} case${results.length === 1 ? "" : "s"}: ${results.length - failed} passed, ${failed} failed`;
      io.out(`\n${count}\n`);
    }
    return failed === 0 ? EXIT.ok : EXIT.failure;
  },
});
