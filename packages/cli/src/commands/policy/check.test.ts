import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT } from "../kit.js";
import { child, inProcess, scratch } from "../test-fixtures.js";
import { CEDAR, POLICY } from "./test-fixtures.js";

const { dir, write } = scratch("toolware-cli-policy-check-");
const check = (...argv: string[]) => inProcess(["policy", "check", ...argv], dir);

describe("toolware policy check <file>", () => {
  it("prints a one-line summary of a valid file and exits 0", async () => {
    write("ok.yaml", POLICY);
    expect(await check("ok.yaml")).toEqual({
      code: EXIT.ok,
      out: 'ok.yaml: ok: policy "crew-policy" 4 rules (2 deny, 1 approve, 1 packs only), 1 CEL condition; default allow, mode enforce\n',
      err: "",
    });
    write("empty-rules.json", JSON.stringify({ version: 1, default: "deny", mode: "shadow", rules: [] }));
    expect((await check("empty-rules.json")).out).toBe("empty-rules.json: ok: 0 rules; default deny, mode shadow\n");
  });

  it("a misspelt key: FILE:LINE:COLUMN and the hint on stderr, exit 1 (as a child process)", {
    timeout: 60_000,
  }, () => {
    write("typo.yaml", POLICY.replace("    reason: junior", "    reasn: junior"));
    const run = child(["policy", "check", "typo.yaml"], dir);
    expect(run.code).toBe(1);
    expect(run.out).toBe("");
    expect(run.err).toBe(
      'typo.yaml:8:5: rules[0]: unknown key `reasn` (known keys: name, description, mode, match, decide, reason, approval, packs) (did you mean "reason"?)\n',
    );
  });

  it("lists every problem, one a line, in file order", async () => {
    write("many.yaml", "version: 1\ndefualt: deny\nrules:\n  - name: a\n    decide: dney\n");
    const { code, out, err } = await check("many.yaml");
    expect([code, out]).toEqual([EXIT.failure, ""]);
    const lines = err.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^many\.yaml:\d+:\d+: .*default/);
    expect(lines[1]).toMatch(/^many\.yaml:2:1: unknown key `defualt` .*\(did you mean "default"\?\)$/);
    expect(lines[2]).toMatch(/^many\.yaml:5:13: rules\[0\]\.decide: .*\(did you mean "deny"\?\)$/);
  });

  it("compiles the CEL conditions and reports one that does not compile at its line", async () => {
    write("cel.yaml", POLICY.replace('args.path.contains("..")', "args.path +"));
    const { code, err } = await check("cel.yaml");
    expect(code).toBe(EXIT.failure);
    expect(err).toMatch(
      /^cel\.yaml:10:\d+: rules\[1\]\.match\.when: rule "no-paths-outside-work": its CEL condition does not compile/,
    );
  });

  it("loads the Cedar file and reports a Cedar error in that file, relative to the working directory", async () => {
    write("ok.cedar", CEDAR);
    write("cedar.yaml", "version: 1\ndefault: deny\ncedar: { file: ok.cedar }\nrules: []\n");
    expect(await check("cedar.yaml")).toMatchObject({ code: 0, out: expect.stringContaining("Cedar policies") });
    write("bad.cedar", `${CEDAR}\nforbid(principal, action, resource`);
    write("bad-cedar.yaml", "version: 1\ndefault: deny\ncedar: { file: bad.cedar }\nrules: []\n");
    const { code, err } = await check("bad-cedar.yaml");
    expect(code).toBe(EXIT.failure);
    expect(err).toMatch(/^bad\.cedar:8:\d+: /);
  });

  it("reports a pack's refused options at the rule", async () => {
    write("pack.yaml", POLICY.replace("max: 30", "max: -1"));
    const { code, err } = await check("pack.yaml");
    expect(code).toBe(EXIT.failure);
    expect(err).toMatch(/^pack\.yaml:\d+:\d+: rules\[3\]\.packs/);
  });

  it("checks a file that names a Redis store without connecting to it", async () => {
    write("redis.yaml", POLICY.replace("default: allow", "default: allow\nstores: { default: redis://127.0.0.1:1 }"));
    expect((await check("redis.yaml")).code).toBe(EXIT.ok);
  });

  it("an absolute path is shown as given", async () => {
    const file = write("abs.yaml", "version: 1\ndefault: maybe\nrules: []\n");
    const { code, err } = await check(file);
    expect(code).toBe(EXIT.failure);
    expect(err.startsWith(`${file}:2:10: default: `)).toBe(true);
  });

  it("hostile input: a missing file, a directory, a binary file, a huge file (child processes)", {
    timeout: 90_000,
  }, () => {
    const missing = child(["policy", "check", "nowhere.yaml"], dir);
    expect(missing).toMatchObject({ code: 1, out: "" });
    expect(missing.err).toMatch(
      /^nowhere\.yaml: cannot read the policy file: ENOENT: no such file or directory, open 'nowhere\.yaml'\n$/,
    );
    expect(child(["policy", "check", "."], dir)).toEqual({
      code: 1,
      out: "",
      err: ".: cannot read the policy file: it is a directory\n",
    });
    writeFileSync(
      join(dir, "binary.yaml"),
      Uint8Array.from({ length: 4096 }, (_, i) => (i * 151 + 7) % 256),
    );
    expect(child(["policy", "check", "binary.yaml"], dir)).toEqual({
      code: 1,
      out: "",
      err: "binary.yaml:1:1: the file is not UTF-8 text\n",
    });
    writeFileSync(join(dir, "huge.yaml"), `# ${"x".repeat(3 * 1024 * 1024)}\n${POLICY}`);
    const huge = child(["policy", "check", "huge.yaml"], dir);
    expect(huge).toMatchObject({ code: 1, out: "" });
    expect(huge.err).toMatch(
      /^huge\.yaml:1:1: the file is 3\.0 MiB \(\d+ bytes\); a policy file is at most 1048576 bytes/,
    );
  });

  it("hostile input in process: a missing file and a directory are named with why", async () => {
    expect(await check("gone.yaml")).toEqual({
      code: EXIT.failure,
      out: "",
      err: "gone.yaml: cannot read the policy file: ENOENT: no such file or directory, open 'gone.yaml'\n",
    });
    expect((await check(".")).err).toBe(".: cannot read the policy file: it is a directory\n");
  });

  it("usage errors exit 2: no file, two files, an unknown option with a hint", async () => {
    expect(await check()).toMatchObject({
      code: EXIT.usage,
      err: expect.stringContaining("expected 1 argument (file), got 0"),
    });
    expect((await check("a.yaml", "b.yaml")).code).toBe(EXIT.usage);
    const typo = await check("ok.yaml", "--jsno");
    expect(typo).toMatchObject({ code: EXIT.usage, out: "" });
    expect(typo.err).toMatch(/^toolware policy check: unknown option "--jsno"/);
  });

  it("--help describes the command and its exit codes", async () => {
    const { code, out } = await check("--help");
    expect(code).toBe(EXIT.ok);
    expect(out).toMatch(/^usage: toolware policy check <file> \[options\]\n/);
    expect(out).toContain("FILE:LINE:COLUMN");
    expect(out).toMatch(/Exit codes:\n\s+0\s+done\n\s+1\s+the policy file has problems/);
    const group = await inProcess(["policy", "--help"], dir);
    expect(group.out).toMatch(/check\s+check a policy file/);
    expect(group.out).toMatch(/explain\s+explain how a policy decides one call/);
    expect(group.out).toMatch(/test\s+test a policy against a table of calls/);
  });
});
