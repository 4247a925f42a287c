import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { inProcess } from "../test-fixtures.js";
import { BIN as bin, FS_BIN, ROOT as root, TSX_LOADER as tsx } from "./test-fixtures.js";

const SECRET = "sk-proj-abc123def456ghi789jkl";

const policyText = (extra = "") => `version: 1
name: cli-gateway
default: allow
rules:
  - name: no-moves
    match: { tools: [move_file] }
    decide: deny
    reason: moving files is not allowed
${extra}  - name: redact-secrets
    packs:
      redact: {}
`;

const textOf = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

function setUp() {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolware-cli-gateway-")));
  mkdirSync(join(dir, "files"));
  writeFileSync(join(dir, "files", "notes.txt"), `api_key=${SECRET}\n`);
  writeFileSync(join(dir, "policy.yaml"), policyText());
  writeFileSync(join(dir, "gateway.json"), JSON.stringify({ name: "fs", hideDenied: false }));
  return dir;
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function cli(dir: string, extra: string[]): string[] {
  // tsx as a loader, not its CLI: signals then reach the gateway's own process.
  return [
    "--conditions",
    "@toolware/source",
    "--import",
    tsx,
    bin,
    "gateway",
    "--policy",
    join(dir, "policy.yaml"),
    "--config",
    join(dir, "gateway.json"),
    ...extra,
    "--",
    process.execPath,
    FS_BIN,
    join(dir, "files"),
  ];
}

describe("toolware gateway over stdio, in front of the real server-filesystem", () => {
  it("denies with the reason, redacts, reloads an edit, refuses a broken one with its line, reloads on SIGHUP", async () => {
    const dir = setUp();
    dirs.push(dir);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: cli(dir, []),
      cwd: root,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: "cli-e2e", version: "1.0.0" });
    await client.connect(transport);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("move_file"); // hideDenied: false in the config
      const moved = await client.callTool({ name: "move_file", arguments: { source: "a", destination: "b" } });
      expect(moved.isError).toBe(true);
      expect(textOf(moved)).toContain("moving files is not allowed");
      const read = await client.callTool({
        name: "read_text_file",
        arguments: { path: join(dir, "files", "notes.txt") },
      });
      expect(JSON.stringify(read)).not.toContain(SECRET);

      writeFileSync(
        join(dir, "policy.yaml"),
        policyText(
          "  - name: no-reads\n    match: { tools: [read_text_file] }\n    decide: deny\n    reason: reads are off\n",
        ),
      );
      const reloads = () => stderr.match(/policy version \d+ in force/g)?.length ?? 0;
      await expect.poll(reloads, { timeout: 10_000 }).toBe(1);
      const off = await client.callTool({
        name: "read_text_file",
        arguments: { path: join(dir, "files", "notes.txt") },
      });
      expect(textOf(off)).toContain("Tool");
      expect(off.isError).toBe(true);

      writeFileSync(join(dir, "policy.yaml"), `${policyText()}  - name: broken\n    decide: maybe\n`);
      await expect.poll(() => stderr, { timeout: 10_000 }).toMatch(/edit is refused[^\n]*\n[^\n]*policy\.yaml:1[0-9]:/);
      const still = await client.callTool({
        name: "read_text_file",
        arguments: { path: join(dir, "files", "notes.txt") },
      });
      expect(still.isError).toBe(true);

      writeFileSync(join(dir, "policy.yaml"), policyText());
      await expect.poll(reloads, { timeout: 10_000 }).toBe(2);
      process.kill(transport.pid as number, "SIGHUP");
      await expect.poll(() => stderr, { timeout: 10_000 }).toContain("SIGHUP: the policy file is read again");
      const back = await client.callTool({
        name: "read_text_file",
        arguments: { path: join(dir, "files", "notes.txt") },
      });
      expect(back.isError).not.toBe(true);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("toolware gateway --listen, over Streamable HTTP", () => {
  it("serves sessions at the printed URL and drains on SIGTERM with exit code 0", async () => {
    const dir = setUp();
    dirs.push(dir);
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, cli(dir, ["--listen", "127.0.0.1:0"]), {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    await expect.poll(() => stderr, { timeout: 30_000 }).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/);
    const url = /listening on (\S+)/.exec(stderr)?.[1] as string;
    const client = new Client({ name: "http-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const moved = await client.callTool({ name: "move_file", arguments: { source: "a", destination: "b" } });
    expect(textOf(moved)).toContain("moving files is not allowed");
    await client.close();
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});

describe("toolware gateway: usage", () => {
  it("needs --policy and a command; a bad --listen or config is refused; --help lists the options", async () => {
    const dir = setUp();
    dirs.push(dir);
    const missing = await inProcess(["gateway", "--", "node"], dir);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("--policy FILE is required");
    expect((await inProcess(["gateway", "--policy", "p.yaml"], dir)).code).toBe(2);
    const listen = await inProcess(["gateway", "--policy", "policy.yaml", "--listen", "nope", "--", "node"], dir);
    expect(listen.code).toBe(2);
    expect(listen.err).toContain("--listen takes HOST:PORT");
    const typo = await inProcess(["gateway", "--polcy", "policy.yaml", "--", "node"], dir);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("did you mean --policy");
    writeFileSync(join(dir, "gateway.json"), JSON.stringify({ upstream: [] }));
    const config = await inProcess(
      ["gateway", "--policy", "policy.yaml", "--config", "gateway.json", "--", "node"],
      dir,
    );
    expect(config.code).toBe(1);
    expect(config.err).toContain('did you mean "upstreams"');
    writeFileSync(join(dir, "gateway.json"), JSON.stringify({ restart: { maxRestart: 1 } }));
    const restart = await inProcess(
      ["gateway", "--policy", "policy.yaml", "--config", "gateway.json", "--", "node"],
      dir,
    );
    expect(restart.code).not.toBe(0);
    expect(restart.err).toContain('restart: unknown option `maxRestart` (did you mean "maxRestarts"?)');
    const help = await inProcess(["gateway", "--help"], dir);
    expect(help.code).toBe(0);
    expect(help.out).toContain("usage: toolware gateway <command>... [options]");
    expect(help.out).toMatch(/--shadow/);
    expect(readFileSync(join(dir, "policy.yaml"), "utf8")).toContain("no-moves");
  });
});
