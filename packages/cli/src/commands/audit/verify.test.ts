import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileAuditLog } from "@toolware/inbox";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXIT } from "../kit.js";
import { child, inProcess, scratch } from "../test-fixtures.js";

const { dir, write } = scratch("toolware-cli-verify-");
const verify = (...argv: string[]) => inProcess(["audit", "verify", ...argv], dir);

// A real decision log, written by the inbox's own writer: a request, a vote, a decision, a grant, a revoke.
async function decisionLog(name: string): Promise<{ file: string; lines: string[] }> {
  const file = join(dir, name);
  const log = fileAuditLog(file);
  const at = Date.UTC(2026, 11, 2, 9, 0, 0);
  await log.append({ at, type: "request", actor: "mailer", data: { id: "req_1", toolName: "send_email" } });
  await log.append({ at: at + 1, type: "vote", actor: "alice", data: { id: "req_1" } });
  await log.append({ at: at + 2, type: "decision", actor: "bob", data: { id: "req_1", outcome: "approved" } });
  await log.append({ at: at + 3, type: "grant", actor: "alice", data: { id: "grt_1", toolName: "send_email" } });
  await log.append({ at: at + 4, type: "revoke", actor: "alice", data: { id: "grt_1" } });
  await log.close();
  return { file, lines: readFileSync(file, "utf8").trimEnd().split("\n") };
}

const hashOf = (line: string): string => (JSON.parse(line) as { hash: string }).hash;

describe("toolware audit verify <file>", () => {
  it("prints OK with the number of records and the last hash for an intact log", async () => {
    const { lines } = await decisionLog("ok.jsonl");
    expect(await verify("ok.jsonl")).toEqual({
      code: EXIT.ok,
      out: `ok.jsonl: OK: 5 records, the hash chain is intact; last hash ${hashOf(lines[4] as string)}\n`,
      err: "",
    });
    const json = await verify("ok.jsonl", "--json");
    expect(JSON.parse(json.out)).toEqual({
      ok: true,
      records: 5,
      line: null,
      problem: null,
      lastHash: hashOf(lines[4] as string),
    });
  });

  it("finds a removed line, naming its number and why, and exits 1", async () => {
    const { lines } = await decisionLog("removed.jsonl");
    write("removed.jsonl", `${[lines[0], lines[1], lines[3], lines[4]].join("\n")}\n`);
    expect(await verify("removed.jsonl")).toEqual({
      code: EXIT.failure,
      out: "",
      err:
        "toolware: audit verify: removed.jsonl:3: the hash chain breaks: expected record 3, found 4 (a line was " +
        "removed or moved); the 2 records before it are intact\n",
    });
  });

  it("finds an edited line, even when its hash was recomputed by the editor's hand", async () => {
    const { lines } = await decisionLog("edited.jsonl");
    const edited = (lines[2] as string).replace('"approved"', '"denied"');
    write("edited.jsonl", `${[lines[0], lines[1], edited, lines[3], lines[4]].join("\n")}\n`);
    const run = await verify("edited.jsonl");
    expect(run.code).toBe(EXIT.failure);
    expect(run.err).toMatch(/^toolware: audit verify: edited\.jsonl:3: the hash chain breaks: its hash does not match/);
    // Re-hashing the edited line moves the break to the next line, which names the old hash.
    const record = JSON.parse(edited) as Record<string, unknown>;
    record.hash = `sha256:${"a".repeat(64)}`;
    write("rehashed.jsonl", `${[lines[0], lines[1], JSON.stringify(record), lines[3], lines[4]].join("\n")}\n`);
    expect((await verify("rehashed.jsonl")).err).toMatch(/rehashed\.jsonl:3: the hash chain breaks/);
  });

  it("finds reordered lines and an inserted copy", async () => {
    const { lines } = await decisionLog("moved.jsonl");
    write("moved.jsonl", `${[lines[0], lines[2], lines[1], lines[3], lines[4]].join("\n")}\n`);
    expect((await verify("moved.jsonl")).err).toMatch(
      /moved\.jsonl:2: the hash chain breaks: expected record 2, found 3/,
    );
    write("copied.jsonl", `${[lines[0], lines[1], lines[1], lines[2]].join("\n")}\n`);
    expect((await verify("copied.jsonl")).err).toMatch(/copied\.jsonl:3: .*expected record 3, found 2/);
    write("torn.jsonl", `${lines[0]}\n${(lines[1] as string).slice(0, 40)}`);
    expect((await verify("torn.jsonl")).err).toMatch(/torn\.jsonl:2: the hash chain breaks: the line is not JSON/);
  });

  it("fails an empty file unless --allow-empty, and a missing file or a folder, each exit 1", async () => {
    write("empty.jsonl", "");
    expect(await verify("empty.jsonl")).toEqual({
      code: EXIT.failure,
      out: "",
      err: "toolware: audit verify: empty.jsonl is empty: it holds no record to verify (--allow-empty lets it pass)\n",
    });
    expect(await verify("empty.jsonl", "--allow-empty")).toEqual({
      code: EXIT.ok,
      out: "empty.jsonl: OK: 0 records, the hash chain is intact\n",
      err: "",
    });
    expect(await verify("missing.jsonl")).toEqual({
      code: EXIT.failure,
      out: "",
      err: `toolware: audit verify: no audit file at ${join(dir, "missing.jsonl")}\n`,
    });
    expect(await verify(".")).toMatchObject({ code: EXIT.failure, err: expect.stringMatching(/is not a file\n$/) });
  });

  it("finds lines cut off the end with --expect-last, and refuses a malformed hash as a usage error", async () => {
    const { lines } = await decisionLog("cut.jsonl");
    const last = hashOf(lines[4] as string);
    expect((await verify("cut.jsonl", "--expect-last", last)).code).toBe(EXIT.ok);
    write("cut.jsonl", `${lines.slice(0, 3).join("\n")}\n`);
    expect(await verify("cut.jsonl", "--expect-last", last)).toEqual({
      code: EXIT.failure,
      out: "",
      err: `toolware: audit verify: cut.jsonl: the last record's hash is ${hashOf(lines[2] as string)}, not ${last}: records were cut off the end, or others appended\n`,
    });
    expect((await verify("cut.jsonl")).code).toBe(EXIT.ok);
    const json = JSON.parse((await verify("cut.jsonl", "--json", "--expect-last", last)).out) as { ok: boolean };
    expect(json.ok).toBe(false);
    expect(await verify("cut.jsonl", "--expect-last", "abc")).toMatchObject({
      code: EXIT.usage,
      err: expect.stringMatching(/^toolware audit verify: --expect-last takes a hash sha256:<64 hex digits>/),
    });
  });

  it("never fails as a bug on hostile lines: exit 0 only for a whole chain, else 1 with the line", async () => {
    const { lines } = await decisionLog("base.jsonl");
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constantFrom(...lines), fc.json(), fc.string()), { maxLength: 6 }),
        async (mixed) => {
          const name = `fuzz-${n++}.jsonl`;
          writeFileSync(join(dir, name), mixed.length === 0 ? "" : `${mixed.join("\n")}\n`);
          const run = await verify(name);
          const whole = mixed.length > 0 && mixed.every((line, i) => line === lines[i]);
          expect(run.code, run.err).toBe(whole ? EXIT.ok : EXIT.failure);
          if (!whole)
            expect(run.err).toMatch(/^toolware: audit verify: fuzz-\d+\.jsonl(:\d+: the hash chain breaks| is empty)/);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("is listed by toolware audit --help, and the summary still runs for a file named like no command", async () => {
    const help = await inProcess(["audit", "--help"], dir);
    expect(help.out).toMatch(/^usage: toolware audit <file> \[options\]\n {7}toolware audit <command> \[options\]\n/);
    expect(help.out).toMatch(/\n {2}verify {2}check the hash chain of an inbox decision log/);
    const own = await verify("--help");
    expect(own.out).toMatch(/^usage: toolware audit verify <file> \[options\]\n/);
    expect(own.out).toMatch(/--expect-last HASH/);
  });
});

describe("toolware audit verify, the process", { timeout: 60_000 }, () => {
  it("exits 0 for an intact log and 1 for a broken one", async () => {
    const { lines } = await decisionLog("p.jsonl");
    expect(child(["audit", "verify", "p.jsonl"], dir)).toMatchObject({ code: 0, err: "" });
    write("p-broken.jsonl", `${[lines[1], lines[0]].join("\n")}\n`);
    expect(child(["audit", "verify", "p-broken.jsonl"], dir)).toMatchObject({
      code: 1,
      out: "",
      err: expect.stringMatching(/^toolware: audit verify: p-broken\.jsonl:1: the hash chain breaks/),
    });
  });
});
