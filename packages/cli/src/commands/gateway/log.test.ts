import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";
import { inProcess } from "../test-fixtures.js";
import { BIN as bin, FS_BIN as fsBin, TSX_LOADER as loader, ROOT as root } from "./test-fixtures.js";

const policy = (extra = "") => `version: 1
name: logged
default: allow
rules:
  - name: no-moves
    match: { tools: [move_file] }
    decide: deny
    reason: moving files is not allowed
${extra}`;

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolware-cli-gw-log-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("toolware gateway --log json", () => {
  it("writes one pino JSON line per event to stderr, none to stdout (the MCP channel)", async () => {
    mkdirSync(join(dir, "files"));
    writeFileSync(join(dir, "files", "a.txt"), "hello\n");
    writeFileSync(join(dir, "policy.yaml"), policy());
    writeFileSync(join(dir, "gateway.json"), JSON.stringify({ name: "fs", hideDenied: false }));
    const args = ["--conditions", "@toolware/source", "--import", loader, bin, "gateway", "--log", "json"];
    args.push("--policy", join(dir, "policy.yaml"), "--config", join(dir, "gateway.json"), "--");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...args, process.execPath, fsBin, join(dir, "files")],
      cwd: root,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: "log-e2e", version: "1.2.3" });
    await client.connect(transport);
    const records = () =>
      stderr
        .split("\n")
        // An upstream's own stderr passes through as it is (server-filesystem says it is running): not the gateway's.
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    try {
      const moved = await client.callTool({ name: "move_file", arguments: { source: "a", destination: "b" } });
      expect(moved.isError).toBe(true);
      const read = await client.callTool({ name: "read_text_file", arguments: { path: join(dir, "files", "a.txt") } });
      expect(read.isError).not.toBe(true);
      await client.callTool({ name: "nope", arguments: {} });
      writeFileSync(join(dir, "policy.yaml"), policy("  - name: broken\n    decide: maybe\n"));
      await expect
        .poll(() => records().find((r) => r.event === "policy-reload-error"), { timeout: 10_000 })
        .toMatchObject({ level: 50, problems: [expect.objectContaining({ line: 10 })] });
    } finally {
      await client.close();
    }
    const all = records();
    const others = stderr.split("\n").filter((l) => l !== "" && !l.startsWith("{"));
    expect(others.every((l) => /Secure MCP Filesystem Server|Client does not support MCP Roots/.test(l))).toBe(true);
    expect(all.every((r) => r.name === "toolware-gateway" && typeof r.msg === "string")).toBe(true);
    expect(all.find((r) => r.event === "session-opened")).toMatchObject({ transport: "stdio" });
    const calls = all.filter((r) => r.event === "call");
    expect(calls).toEqual([
      expect.objectContaining({ level: 40, upstream: "fs", tool: "move_file", isError: true }),
      expect.objectContaining({ level: 30, upstream: "fs", tool: "read_text_file", isError: false }),
    ]);
    expect(all.find((r) => r.event === "refused")).toMatchObject({ tool: "nope", reason: "unknown or hidden tool" });
  }, 60_000);

  it("takes text or json; anything else is a usage error with the closest format", async () => {
    const bad = await inProcess(["gateway", "--policy", "p.yaml", "--log", "jsn", "--", "node"], dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--log takes text or json");
    expect(bad.err).toContain("did you mean json?");
    const help = await inProcess(["gateway", "--help"], dir);
    expect(help.out).toContain("--log FORMAT");
  });
});
