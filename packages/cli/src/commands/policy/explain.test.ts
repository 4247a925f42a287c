import { describe, expect, it } from "vitest";
import { EXIT } from "../kit.js";
import { child, inProcess, scratch } from "../test-fixtures.js";
import { CEDAR, POLICY } from "./test-fixtures.js";

const { dir, write } = scratch("toolware-cli-policy-explain-");
write("p.yaml", POLICY);
write("p.cedar", CEDAR);
write(
  "both.yaml",
  `version: 1
default: deny
cedar: { file: p.cedar }
rules:
  - name: ro-ok
    match: { annotations: { readOnlyHint: true } }
    decide: allow
  - name: ops-only
    match: { tags: [admin], crews: [ops] }
    decide: allow
  - name: trial
    mode: shadow
    match: { tools: [rm] }
    decide: deny
    reason: rm is on trial
  - name: bad-when
    match: { tools: [calc], when: 'args.n > 0' }
    decide: allow
`,
);
const explain = (...argv: string[]) => inProcess(["policy", "explain", ...argv], dir);

describe("toolware policy explain <file>", () => {
  it("shows every rule in order and why, the deciding rule and its reason, and the packs that attach", async () => {
    const { code, out, err } = await explain(
      "p.yaml",
      "--tool",
      "write_file",
      "--agent",
      "junior",
      "--args",
      '{"path":"../etc/passwd"}',
    );
    expect([code, err]).toEqual([EXIT.ok, ""]);
    expect(out).toBe(
      [
        "policy: p.yaml",
        'call: write_file  agent junior  args {"path":"../etc/passwd"}',
        "",
        "rules, in file order (→ decides, ✓ matches):",
        "    juniors-cannot-delete  deny    no match: the tool is not one of its tools",
        '  → no-paths-outside-work  deny    matches; when args.path.contains("..") → true',
        "    ask-before-email       approve no match: the tool is not one of its tools",
        "  ✓ everything             packs   matches",
        "",
        'decision: deny by rule "no-paths-outside-work": paths must stay inside the work folder',
        "packs: everything/redact, everything/rate-limit",
        "",
      ].join("\n"),
    );
    const inside = await explain("p.yaml", "--tool", "write_file", "--args", '{"path":"notes.txt"}');
    expect(inside.out).toContain(
      'no-paths-outside-work  deny    no match: its condition is false; when args.path.contains("..") → false',
    );
    expect(inside.out).toContain("decision: allow by the file's default\n");
  });

  it("--json gives the call and the whole explanation", async () => {
    const { code, out } = await explain(
      "p.yaml",
      "--tool",
      "delete_file",
      "--agent",
      "junior",
      "--crew",
      "c",
      "--json",
    );
    expect(code).toBe(EXIT.ok);
    const e = JSON.parse(out);
    expect(e).toMatchObject({
      call: { tool: "delete_file", agent: "junior", crew: "c", args: {} },
      effect: "deny",
      rule: "juniors-cannot-delete",
      source: "rule",
      reason: "junior agents cannot delete files",
      matched: ["juniors-cannot-delete", "everything"],
      packs: ["everything/redact", "everything/rate-limit"],
    });
    expect(e.rules.map((r: { failed?: string }) => r.failed ?? null)).toEqual([null, "tools", "tools", null]);
  });

  it("reads tags, annotations, the caller and the crew; shows Cedar, shadow rules and a failing condition", async () => {
    const ro = await explain("both.yaml", "--tool", "read_file", "--annotations", "readOnlyHint=true");
    expect(ro.out).toContain("  → ro-ok ");
    expect(ro.out).toContain("cedar: allow (reads)\n");
    const ops = await explain("both.yaml", "--tool", "x", "--tags", "admin,net", "--crew", "ops", "--agent", "a");
    expect(ops.out).toContain('decision: allow by rule "ops-only"');
    expect(ops.out).toContain("cedar: no Cedar policy applies to this tool\n");
    const rm = await explain("both.yaml", "--tool", "rm", "--agent", "junior", "--caller", "ui");
    expect(rm.out).toContain("cedar: deny (no-rm-for-juniors): juniors cannot remove files\n");
    expect(rm.out).toContain("decision: deny by Cedar (cedar:no-rm-for-juniors): juniors cannot remove files\n");
    expect(rm.out).toContain("shadow: trial would deny: rm is on trial\n");
    expect(rm.out).toMatch(/✓ trial\s+deny\s+matches \[shadow\]/);
    const calc = await explain("both.yaml", "--tool", "calc", "--args", '{"n":"many"}');
    expect(calc.out).toMatch(
      /matches: its condition failed \(no such overload: [^\n]+\), so it denies \(fails closed\); when args\.n > 0 → error/,
    );
    expect(calc.out).toContain(
      'decision: deny by rule "bad-when": policy rule "bad-when" could not evaluate its condition',
    );
  });

  it("--mode shadow decides every rule in shadow: what would be denied is allowed and reported", async () => {
    const { out } = await explain("p.yaml", "--tool", "delete_file", "--agent", "junior", "--mode", "shadow");
    expect(out).toContain("decision: allow by the file's default\n");
    expect(out).toContain("shadow: juniors-cannot-delete would deny: junior agents cannot delete files\n");
  });

  it("bad --args JSON exits 2 with the parser's error (child process)", { timeout: 60_000 }, () => {
    const run = child(["policy", "explain", "p.yaml", "--tool", "t", "--args", '{"path":'], dir);
    expect(run.code).toBe(EXIT.usage);
    expect(run.out).toBe("");
    expect(run.err).toMatch(/^toolware policy explain: --args is not valid JSON: .*JSON/);
    expect(run.err).toContain('Run "toolware policy explain --help" for usage.');
  });

  it("usage errors exit 2 before the policy is read", async () => {
    const cases: [string[], RegExp][] = [
      [["p.yaml"], /--tool NAME is required/],
      [["p.yaml", "--tool", ""], /--tool NAME is required/],
      [["p.yaml", "--tool", "t", "--args", "[1]"], /--args takes a JSON object .*got an array/],
      [["p.yaml", "--tool", "t", "--args", "null"], /got null/],
      [["p.yaml", "--tool", "t", "--args", "7"], /got number/],
      [["p.yaml", "--tool", "t", "--tags", "a,,b"], /--tags takes names separated by commas/],
      [
        ["p.yaml", "--tool", "t", "--annotations", "destrutiveHint=true"],
        /unknown annotation "destrutiveHint" \(did you mean destructiveHint\?\)/,
      ],
      [["p.yaml", "--tool", "t", "--annotations", "readOnlyHint=yes"], /readOnlyHint takes =true or =false/],
      [["p.yaml", "--tool", "t", "--annotations", "readOnlyHint=true,readOnlyHint=false"], /given twice/],
      [["p.yaml", "--tool", "t", "--mode", "dry"], /--mode takes enforce or shadow/],
      [["p.yaml", "--tool", "t", "--agnet", "x"], /unknown option "--agnet" \(did you mean --agent\?\)/],
      [["missing.yaml", "--tool", "t", "--args", "{"], /--args is not valid JSON/],
    ];
    for (const [argv, message] of cases) {
      const run = await explain(...argv);
      expect(run.code, argv.join(" ")).toBe(EXIT.usage);
      expect(run.err).toMatch(message);
    }
  });

  it("a policy with problems exits 1 with them; --help lists every option", async () => {
    write("bad.yaml", "version: 1\ndefault: allow\nrules:\n  - nme: x\n");
    const bad = await explain("bad.yaml", "--tool", "t");
    expect(bad.code).toBe(EXIT.failure);
    expect(bad.err).toMatch(/^bad\.yaml:4:5: rules\[0\]: unknown key `nme` .*\(did you mean "name"\?\)/m);
    const help = await explain("--help");
    for (const option of [
      "--tool NAME",
      "--agent ROLE",
      "--crew",
      "--caller",
      "--tags",
      "--annotations",
      "--args JSON",
      "--mode",
      "--json",
    ]) {
      expect(help.out).toContain(option);
    }
  });
});
