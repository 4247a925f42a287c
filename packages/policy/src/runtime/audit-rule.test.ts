// docs/policy.md: "The deciding rule is named everywhere: in the call's trace, so in the audit line". That holds for
// the calls a rule lets through or a person approves too, not only for the ones it blocks.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scriptedHumanInput, ToolHooks } from "@toolware/core";
import { afterAll, describe, expect, it } from "vitest";
import { loadPolicy } from "./load.js";
import { tool } from "./test-fixtures.js";
import { watchPolicy } from "./watch.js";

const dir = mkdtempSync(join(tmpdir(), "toolware-policy-audit-rule-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (audit: string) => `version: 1
default: allow
rules:
  - name: reads-are-fine
    match: { tools: [read_file] }
    decide: allow
  - name: ask-before-delete
    match: { tools: [delete_file] }
    decide: approve
  - name: no-moves
    match: { tools: [move_file] }
    decide: deny
  - name: audit-all
    packs:
      audit: { file: ${JSON.stringify(audit)} }
`;

type Line = { tool: string; status: string; hooks: { hook: string; action: string }[] };
const decided = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Line)
    .map((r) => [
      r.tool,
      r.status,
      r.hooks.filter((h) => h.hook.startsWith("policy:")).map((h) => `${h.hook} ${h.action}`),
    ]);

const expected = [
  ["read_file", "ok", ["policy:reads-are-fine proceeded"]],
  ["list_files", "ok", ["policy:default proceeded"]],
  ["delete_file", "ok", ["policy:ask-before-delete proceeded"]],
  ["delete_file", "blocked", ["policy:ask-before-delete blocked"]],
  ["move_file", "blocked", ["policy:no-moves blocked"]],
];

describe("the audit line names the deciding rule of every call", () => {
  for (const kind of ["loadPolicy", "watchPolicy"] as const) {
    it(`allowed, approved, refused and denied calls (${kind})`, async () => {
      const audit = join(dir, `${kind}.jsonl`);
      const file = join(dir, `${kind}.policy.yaml`);
      writeFileSync(file, text(audit));
      const watched = kind === "watchPolicy" ? await watchPolicy(file) : undefined;
      const policy = watched ?? (await loadPolicy(file));
      const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes", "no"]) });
      hooks.use(policy);
      try {
        for (const name of ["read_file", "list_files", "delete_file", "delete_file", "move_file"]) {
          await hooks.invoke(tool(name), { path: "a" });
        }
      } finally {
        watched?.close();
      }
      expect(decided(audit)).toEqual(expected);
    });
  }

  it("a hook that only proceeded and is not a policy's decision stays out of the line", async () => {
    const audit = join(dir, "plain.jsonl");
    const file = join(dir, "plain.policy.yaml");
    writeFileSync(file, text(audit));
    const hooks = new ToolHooks();
    hooks.before(function policyLookalike() {});
    hooks.use(await loadPolicy(file));
    await hooks.invoke(tool("read_file"), { path: "a" });
    const [line] = readFileSync(audit, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Line);
    expect(line?.hooks.map((h) => h.hook)).toEqual(["policy:reads-are-fine"]);
  });
});
