import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BIN as bin, binOf, FS_BIN, TSX_LOADER as tsx } from "./test-fixtures.js";

// The MCP Inspector 2.x declares node >= 22.19; the gate's Node 22 leg runs this file.
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
const inspectorNode = major > 22 || (major === 22 && minor >= 19);

const INSPECTOR = binOf("packages/cli", "@modelcontextprotocol/inspector", "mcp-inspector");

const POLICY = `version: 1
name: inspector-check
default: allow
rules:
  - name: no-moves
    match: { tools: [move_file, create_directory] }
    decide: deny
    reason: the tree's layout is fixed
  - name: no-dotenv
    match: { tools: [write_file], when: 'args.path.endsWith(".env")' }
    decide: deny
    reason: .env files are off limits
`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A policy, a folder for server-filesystem, and an Inspector config whose one server is `toolware gateway`. */
function setUp(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolware-inspector-")));
  dirs.push(dir);
  mkdirSync(join(dir, "files"));
  mkdirSync(join(dir, "home"));
  writeFileSync(join(dir, "policy.yaml"), POLICY);
  const args = ["--conditions", "@toolware/source", "--import", tsx, bin, "gateway", "--policy"];
  const gateway = [...args, join(dir, "policy.yaml"), "--", process.execPath, FS_BIN, join(dir, "files")];
  writeFileSync(
    join(dir, "mcp.json"),
    JSON.stringify({ mcpServers: { gw: { command: process.execPath, args: gateway } } }),
  );
  return dir;
}

interface Run {
  readonly code: number;
  readonly result: { tools?: { name: string }[]; content?: { type: string; text?: string }[]; isError?: boolean };
}

/** One Inspector CLI run (`--cli`), offline: its catalog and client config under a scratch HOME, secrets in memory. */
function inspect(dir: string, method: string[]): Promise<Run> {
  const argv = [INSPECTOR, "--cli", "--config", join(dir, "mcp.json"), "--server", "gw", ...method, "--format", "json"];
  const env = { ...process.env, HOME: join(dir, "home"), MCP_INSPECTOR_SECRET_STORE: "memory" };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...argv, "-q"], { env, timeout: 90_000 }, (error, stdout, stderr) => {
      if (stdout.trim() === "") return reject(new Error(`no result (exit ${error?.code}): ${stderr}`));
      const code = typeof error?.code === "number" ? error.code : 0;
      resolve({ code, result: (JSON.parse(stdout) as { result: Run["result"] }).result });
    });
  });
}

const textOf = (run: Run) => (run.result.content ?? []).map((c) => c.text ?? "").join("\n");

describe.runIf(inspectorNode)("the MCP Inspector's CLI mode against toolware gateway and server-filesystem", () => {
  it("lists the tools minus the denied ones, refuses a denied call with the reason, runs an allowed one", async () => {
    const dir = setUp();
    const listed = await inspect(dir, ["--method", "tools/list"]);
    const names = (listed.result.tools ?? []).map((t) => t.name);
    expect(listed.code).toBe(0);
    expect(names).toEqual(expect.arrayContaining(["read_text_file", "write_file", "list_directory", "edit_file"]));
    expect(names).not.toContain("move_file");
    expect(names).not.toContain("create_directory");

    const secret = join(dir, "files", "prod.env");
    const refused = await inspect(
      dir,
      ["--method", "tools/call", "--tool-name", "write_file"].concat([
        "--tool-arg",
        `path=${secret}`,
        "content=TOKEN=1",
      ]),
    );
    expect(refused.result.isError).toBe(true);
    expect(textOf(refused)).toContain(".env files are off limits");
    expect(refused.code).not.toBe(0);
    expect(existsSync(secret)).toBe(false);

    const notes = join(dir, "files", "notes.txt");
    const written = await inspect(
      dir,
      ["--method", "tools/call", "--tool-name", "write_file"].concat([
        "--tool-arg",
        `path=${notes}`,
        "content=hello from the inspector",
      ]),
    );
    expect(written.code).toBe(0);
    expect(written.result.isError).not.toBe(true);
    expect(readFileSync(notes, "utf8")).toBe("hello from the inspector");
  }, 300_000);
});
