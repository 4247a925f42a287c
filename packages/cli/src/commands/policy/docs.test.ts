import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXIT } from "../kit.js";
import { inProcess, scratch } from "../test-fixtures.js";

// docs/policy.md "The CLI" promises what these commands print: its examples are run here, so they cannot drift.
const docs = readFileSync(new URL("../../../../../docs/policy.md", import.meta.url), "utf8");
const section = docs.slice(docs.indexOf("## The CLI"), docs.indexOf("## Errors"));
const blocks = (lang: string) =>
  [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1] as string);
const { dir, write } = scratch("toolware-cli-policy-docs-");

describe('docs/policy.md, "The CLI"', () => {
  const [policy, cases] = blocks("yaml");
  write("toolware.policy.yaml", policy as string);
  write("policy.cases.yaml", cases as string);

  it("the example CASES file passes against the example policy", async () => {
    const run = await inProcess(["policy", "test", "toolware.policy.yaml", "policy.cases.yaml"], dir);
    expect(run).toEqual({
      code: EXIT.ok,
      out: "PASS juniors cannot delete\nPASS path escapes are denied\nPASS reading is fine for anyone\n\n3 cases: 3 passed, 0 failed\n",
      err: "",
    });
  });

  it("the explain example prints what the page shows", async () => {
    const shown = blocks("text").find((b) => b.startsWith("$ toolware policy explain")) as string;
    const [command, ...output] = shown.split("\n");
    const argv = [...(command as string).matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]).slice(2) as string[];
    const run = await inProcess(argv, dir);
    expect(run.code).toBe(EXIT.ok);
    expect(run.out).toBe(output.join("\n"));
  });

  it("every option the page lists for explain is one the command takes", async () => {
    const help = (await inProcess(["policy", "explain", "--help"], dir)).out;
    for (const [, option] of section.matchAll(/^\| `(--[a-z]+)/gm)) expect(help).toContain(option);
  });
});
