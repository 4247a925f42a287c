// docs/gateway.md is followed as written: every policy it shows loads with `toolware policy check`, the GitHub
// policy passes its own table of cases, and every client config it shows starts the gateway the quick start runs.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EXIT } from "../kit.js";
import { inProcess } from "../test-fixtures.js";
import { readConfig } from "./config.js";

const page = readFileSync(new URL("../../../../../docs/gateway.md", import.meta.url), "utf8");
const blocks = (lang: string) =>
  [...page.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\``, "gm"))].map((m) => m[1] as string);
const policies = blocks("yaml").filter((b) => /^version: /m.test(b));
const dir = mkdtempSync(join(tmpdir(), "toolware-gateway-docs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("docs/gateway.md", () => {
  it("shows the filesystem and the GitHub policy, and every policy block loads", async () => {
    expect(policies.map((p) => /^name: (.+)$/m.exec(p)?.[1])).toEqual(expect.arrayContaining(["files", "github"]));
    for (const [i, policy] of policies.entries()) {
      writeFileSync(join(dir, `doc-${i}.policy.yaml`), policy);
      const run = await inProcess(["policy", "check", `doc-${i}.policy.yaml`], dir);
      expect(run.err, policy).toBe("");
      expect(run.code).toBe(EXIT.ok);
    }
  });

  it("a policy block that stops loading fails this test", async () => {
    const broken = (policies[0] as string).replace("decide: deny", "decide: dney");
    writeFileSync(join(dir, "broken.policy.yaml"), broken);
    const run = await inProcess(["policy", "check", "broken.policy.yaml"], dir);
    expect(run.code).toBe(EXIT.failure);
    expect(run.err).toContain('did you mean "deny"');
  });

  it("the GitHub policy passes the table of cases the page shows", async () => {
    const github = policies.find((p) => /^name: github$/m.test(p)) as string;
    const cases = blocks("yaml").find((b) => b.startsWith("cases:")) as string;
    // A folder of its own: the check above opened the policy's audit file in this process.
    const own = join(dir, "cases");
    mkdirSync(own);
    writeFileSync(join(own, "github.policy.yaml"), github);
    writeFileSync(join(own, "github.cases.yaml"), cases);
    const run = await inProcess(["policy", "test", "github.policy.yaml", "github.cases.yaml"], own);
    expect(run.code, run.out + run.err).toBe(EXIT.ok);
    expect(run.out).toMatch(/^(\d+) cases: \1 passed, 0 failed$/m);
    expect(run.out.match(/^PASS /gm)?.length).toBeGreaterThanOrEqual(6);
  });

  it("every client config runs the quick start's command, under the key and type each client reads", () => {
    const quick = /^toolware (gateway --policy .+)$/m.exec(page)?.[1]?.split(" ") as string[];
    const configs = blocks("json")
      .map((b) => JSON.parse(b) as Record<string, Record<string, Record<string, unknown>>>)
      .filter((c) => c.mcpServers !== undefined || c.servers !== undefined);
    expect(configs).toHaveLength(4); // Claude Desktop, Claude Code, Cursor, VS Code
    for (const config of configs) {
      const server = (config.mcpServers ?? config.servers)?.files as { command: string; args: string[] };
      expect(server.command).toBe("toolware");
      // The same words, with the absolute paths a desktop client needs.
      expect(server.args.map((a) => a.replace("/Users/me/toolware.policy.yaml", "toolware.policy.yaml"))).toEqual(
        quick.map((a) => a.replace("~/work", "/Users/me/work")),
      );
    }
    // VS Code reads `servers` and wants a type; the others read `mcpServers`.
    expect(configs.filter((c) => c.servers !== undefined).map((c) => c.servers?.files?.type)).toEqual(["stdio"]);
  });

  it("the --config example is a config the gateway reads", () => {
    const example = blocks("json").find((b) => b.includes('"upstreams"')) as string;
    writeFileSync(join(dir, "gateway.json"), example);
    const config = readConfig(dir, "gateway.json");
    expect(config.upstreams?.map((u) => u.name)).toEqual(["tickets", "git"]);
  });
});
