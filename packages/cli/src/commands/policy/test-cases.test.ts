import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXIT } from "../kit.js";
import { child, inProcess, scratch } from "../test-fixtures.js";
import { parseCases } from "./cases.js";
import { POLICY } from "./test-fixtures.js";

const { dir, write } = scratch("toolware-cli-policy-test-");
write("p.yaml", POLICY);
const test = (...argv: string[]) => inProcess(["policy", "test", ...argv], dir);

const PASSING = `cases:
  - name: juniors cannot delete
    tool: delete_file
    agent: junior
    expect: deny
    rule: juniors-cannot-delete
    reason: cannot delete
  - name: escapes are denied
    tool: write_file
    args: { path: "../etc/passwd" }
    expect: deny
  - tool: send_email
    tags: [mail]
    annotations: { openWorldHint: true }
    expect: approve
  - tool: read_file
    crew: ops
    caller: ui
    expect: allow
    rule: default
`;

describe("toolware policy test <file> <cases>", () => {
  it("runs every case and exits 0 when all pass", async () => {
    write("ok.yaml", PASSING);
    expect(await test("p.yaml", "ok.yaml")).toEqual({
      code: EXIT.ok,
      out: "PASS juniors cannot delete\nPASS escapes are denied\nPASS case 3\nPASS case 4\n\n4 cases: 4 passed, 0 failed\n",
      err: "",
    });
  });

  it("prints a diff per failing case (decision, rule, reason) and exits 1 (child process)", { timeout: 60_000 }, () => {
    write(
      "failing.yaml",
      `cases:
  - name: wrong decision
    tool: write_file
    args: { path: "../x" }
    expect: allow
  - name: wrong rule and reason
    tool: delete_file
    agent: junior
    expect: deny
    rule: no-deletes
    reason: never
  - name: fine
    tool: t
    expect: allow
`,
    );
    const run = child(["policy", "test", "p.yaml", "failing.yaml"], dir);
    expect(run.code).toBe(EXIT.failure);
    expect(run.err).toBe("");
    expect(run.out).toBe(
      [
        "FAIL wrong decision (failing.yaml:2:5)",
        "  ✗ decision  expected allow",
        "              actual   deny",
        "    rule      expected (any)",
        "              actual   no-paths-outside-work",
        "FAIL wrong rule and reason (failing.yaml:6:5)",
        "    decision  expected deny",
        "              actual   deny",
        "  ✗ rule      expected no-deletes",
        "              actual   juniors-cannot-delete",
        '  ✗ reason    expected contains "never"',
        '              actual   "junior agents cannot delete files"',
        "PASS fine",
        "",
        "3 cases: 1 passed, 2 failed",
        "",
      ].join("\n"),
    );
  });

  it("--json gives every result; --mode shadow tests a policy as a shadow rollout decides", async () => {
    write("shadow.yaml", "cases:\n  - tool: delete_file\n    agent: junior\n    expect: allow\n");
    const enforced = await test("p.yaml", "shadow.yaml", "--json");
    expect(enforced.code).toBe(EXIT.failure);
    expect(JSON.parse(enforced.out)).toEqual({
      passed: 0,
      failed: 1,
      results: [
        {
          name: "case 1",
          at: "shadow.yaml:2:5",
          passed: false,
          expected: { decision: "allow" },
          actual: { decision: "deny", rule: "juniors-cannot-delete", reason: "junior agents cannot delete files" },
          failed: ["decision"],
        },
      ],
    });
    expect((await test("p.yaml", "shadow.yaml", "--mode", "shadow")).code).toBe(EXIT.ok);
  });

  it("a case whose arguments the policy cannot read fails with why, instead of passing", async () => {
    write(
      "deep.yaml",
      `cases:\n  - tool: write_file\n    args: { path: ${"[".repeat(40)}1${"]".repeat(40)} }\n    expect: allow\n`,
    );
    const { code, out } = await test("p.yaml", "deep.yaml");
    expect(code).toBe(EXIT.failure);
    expect(out).toMatch(/actual {3}deny/);
  });

  it("checks the CASES file strictly: every problem with its line, column, key path and hint", async () => {
    write(
      "strict.yaml",
      `cases:
  - tol: write_file
    expect: alow
  - tool: 7
    expect: deny
    tags: fs
    annotations: { destructivehint: true, readOnlyHint: maybe }
    args: [1]
  - "just a string"
extra: 1
`,
    );
    const { code, out, err } = await test("p.yaml", "strict.yaml");
    expect([code, out]).toEqual([EXIT.failure, ""]);
    expect(err.trimEnd().split("\n")).toEqual([
      'strict.yaml:2:5: cases[0]: unknown key "tol" (known keys: name, tool, agent, crew, caller, tags, annotations, args, expect, rule, reason) (did you mean "tool"?)',
      'strict.yaml:2:5: cases[0]: missing key "tool"',
      'strict.yaml:3:13: cases[0].expect: must be one of: allow, deny, approve (did you mean "allow"?)',
      "strict.yaml:4:11: cases[1].tool: must be a non-empty string",
      "strict.yaml:6:11: cases[1].tags: must be a list of non-empty strings",
      'strict.yaml:7:20: cases[1].annotations: unknown key "destructivehint" (known keys: destructiveHint, readOnlyHint, idempotentHint, openWorldHint) (did you mean "destructiveHint"?)',
      "strict.yaml:7:57: cases[1].annotations.readOnlyHint: must be true or false",
      "strict.yaml:8:11: cases[1].args: must be a mapping (the tool's arguments)",
      "strict.yaml:9:5: cases[2]: a case must be a mapping (tool, expect, …)",
      'strict.yaml:10:1: unknown key "extra" (known keys: cases)',
    ]);
  });

  it("refuses YAML a person did not mean: syntax errors, duplicate keys, alias bombs, empty files", async () => {
    const refused: [string, RegExp][] = [
      ["cases: [\n", /^s\.yaml:2:1: /],
      ["cases:\n  - tool: a\n    tool: b\n    expect: deny\n", /^s\.yaml:3:5: Map keys must be unique/],
      [
        `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ncases: []\n`,
        /^s\.yaml:1:1: Excessive alias count/,
      ],
      ["", /^s\.yaml:1:1: a CASES file is a mapping with one key, `cases`/],
      ["- tool: a\n", /^s\.yaml:1:1: a CASES file is a mapping/],
      ["name: x\n", /^s\.yaml:1:1: unknown key "name" .*\ns\.yaml:1:1: missing key "cases"/],
      ["cases: {}\n", /^s\.yaml:1:8: cases: must be a list of cases/],
      ["cases: []\n", /^s\.yaml:1:8: cases: is empty/],
      ["cases:\n  - 7: x\n    tool: a\n    expect: deny\n", /^s\.yaml:2:5: cases\[0\]: unknown key "7"/],
      [
        "cases:\n  - tool: a\n    expect: [deny]\n",
        /^s\.yaml:3:13: cases\[0\]\.expect: must be one of: allow, deny, approve\n/,
      ],
      ["cases:\n  - !custom { tool: a, expect: deny }\n", /^s\.yaml:2:5: .*[Tt]ag/],
    ];
    for (const [text, message] of refused) {
      write("s.yaml", text);
      const run = await test("p.yaml", "s.yaml");
      expect(run.code, text).toBe(EXIT.failure);
      expect(run.err, text).toMatch(message);
    }
  });

  it("never throws on any text: it reads cases or lists issues with positions", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((j) => `cases: ${j}`),
        ),
        (text) => {
          const { cases, issues } = parseCases(text, "f.yaml");
          for (const issue of issues) expect(issue.line).toBeGreaterThan(0);
          expect(cases.length === 0 || issues.length === 0).toBe(true);
          if (issues.length === 0) expect(cases.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("hostile input: a missing, directory, binary or huge CASES file, a missing policy (child processes)", {
    timeout: 120_000,
  }, () => {
    write("ok.yaml", PASSING);
    expect(child(["policy", "test", "p.yaml", "none.yaml"], dir)).toEqual({
      code: 1,
      out: "",
      err: "none.yaml: cannot read the cases file: ENOENT: no such file or directory, open 'none.yaml'\n",
    });
    expect(child(["policy", "test", "p.yaml", "."], dir)).toMatchObject({
      code: 1,
      err: ".: cannot read the cases file: it is a directory, not a file\n",
    });
    writeFileSync(
      join(dir, "binary.yaml"),
      Uint8Array.from({ length: 4096 }, (_, i) => (i * 151 + 7) % 256),
    );
    expect(child(["policy", "test", "p.yaml", "binary.yaml"], dir).err).toBe(
      "binary.yaml: cannot read the cases file: it is not UTF-8 text\n",
    );
    writeFileSync(join(dir, "huge.yaml"), `# ${"x".repeat(9 * 1024 * 1024)}\n`);
    expect(child(["policy", "test", "p.yaml", "huge.yaml"], dir)).toMatchObject({
      code: 1,
      err: "huge.yaml: cannot read the cases file: it is larger than 8388608 bytes\n",
    });
    expect(child(["policy", "test", "gone.yaml", "ok.yaml"], dir)).toMatchObject({
      code: 1,
      out: "",
      err: expect.stringMatching(/^gone\.yaml: cannot read the policy file: ENOENT/),
    });
  });

  it("hostile input in process: each unreadable CASES file is named with why", async () => {
    writeFileSync(join(dir, "bin2.yaml"), Uint8Array.from([0xff, 0xfe, 0x00, 0xc3]));
    writeFileSync(join(dir, "big.yaml"), "#".repeat(8 * 1024 * 1024 + 1));
    const expected: [string, string][] = [
      ["none.yaml", "ENOENT: no such file or directory, open 'none.yaml'"],
      [".", "it is a directory, not a file"],
      ["bin2.yaml", "it is not UTF-8 text"],
      ["big.yaml", "it is larger than 8388608 bytes"],
    ];
    for (const [file, why] of expected) {
      expect(await test("p.yaml", file)).toEqual({
        code: 1,
        out: "",
        err: `${file}: cannot read the cases file: ${why}\n`,
      });
    }
  });

  it("usage errors exit 2; --help shows a CASES example and the exit codes", async () => {
    expect((await test("p.yaml")).code).toBe(EXIT.usage);
    expect((await test("p.yaml", "ok.yaml", "--mode", "off")).code).toBe(EXIT.usage);
    const help = await test("--help");
    expect(help.out).toMatch(/^usage: toolware policy test <file> <cases> \[options\]/);
    expect(help.out).toContain("    - name: juniors cannot delete\n");
    expect(help.out).toMatch(/1\s+a case failed/);
  });
});
