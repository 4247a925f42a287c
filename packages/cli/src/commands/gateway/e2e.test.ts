// The "Done when" list of the gateway issue, end to end as a user runs it: the `toolware gateway` process in front
// of the real @modelcontextprotocol/server-filesystem, driven by the SDK's own Client over stdio and over Streamable
// HTTP, with the filesystem policy of docs/gateway.md (plus an approval rule) as the policy file.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { BIN as bin, FS_BIN, ROOT as root, TSX_LOADER as tsx } from "./test-fixtures.js";

const SECRET = "sk-proj-abc123def456ghi789jkl";

// The filesystem policy the docs show, with the docs' folder replaced by the test's own.
const docs = readFileSync(join(root, "docs/gateway.md"), "utf8");
const section = docs.slice(docs.indexOf("## A policy for a filesystem server"));
const docPolicy = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
const APPROVAL = `  - name: ask-before-mkdir
    match: { tools: [create_directory] }
    decide: approve
    approval: { message: Create this folder? }
  - name: no-in-place-edits
    match: { tools: ["edit_*"], annotations: { destructiveHint: true } }
    decide: deny
    reason: in-place edits are not allowed, write a new draft
`;
const policyText = (dir: string, extra = "") => `${docPolicy.replaceAll("/Users/me/work", dir)}${APPROVAL}${extra}`;

const textOf = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function workspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolware-gateway-e2e-")));
  dirs.push(dir);
  mkdirSync(join(dir, "drafts"));
  writeFileSync(join(dir, "notes.txt"), `deploy notes\napi_key=${SECRET}\n`);
  writeFileSync(join(dir, ".env"), "TOKEN=hush\n");
  writeFileSync(join(dir, "toolware.policy.yaml"), policyText(dir));
  // Listed, so that a denial is answered with its reason rather than as an unknown tool.
  writeFileSync(join(dir, "gateway.json"), JSON.stringify({ name: "fs", hideDenied: false }));
  return dir;
}

function argv(dir: string, extra: string[]): string[] {
  // tsx as a loader, not its CLI: the process is the gateway itself, as `toolware gateway` runs.
  return [
    ...["--conditions", "@toolware/source", "--import", tsx, bin, "gateway"],
    ...["--policy", join(dir, "toolware.policy.yaml"), "--config", join(dir, "gateway.json"), ...extra],
    ...["--", process.execPath, FS_BIN, dir],
  ];
}

/** A client that declares elicitation and answers the approval questions from a script, "no" once it runs out. */
function elicitingClient(answers: string[], asked: string[]): Client {
  const client = new Client({ name: "e2e-desktop", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { answer: answers.shift() ?? "no" } };
  });
  return client;
}

interface Running {
  client: Client;
  stderr: () => string;
  asked: string[];
}

async function overStdio(dir: string, extra: string[] = []): Promise<Running> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: argv(dir, extra),
    cwd: root,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const asked: string[] = [];
  const client = elicitingClient(["yes"], asked);
  await client.connect(transport);
  return { client, stderr: () => stderr, asked };
}

async function overHttp(dir: string): Promise<Running> {
  const child = spawn(process.execPath, argv(dir, ["--listen", "127.0.0.1:0"]), {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  await expect.poll(() => stderr, { timeout: 30_000 }).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/mcp/);
  const url = /listening on (\S+)/.exec(stderr)?.[1] as string;
  const asked: string[] = [];
  const client = elicitingClient(["yes"], asked);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { client, stderr: () => stderr, asked };
}

async function doneWhen(dir: string, { client, stderr, asked }: Running): Promise<void> {
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });

  // Destructive tools denied with the reason: by name, and by the annotation the gateway cached from tools/list.
  const moved = await call("move_file", { source: join(dir, "notes.txt"), destination: join(dir, "x.txt") });
  expect(moved.isError).toBe(true);
  expect(textOf(moved)).toContain("moving files is not allowed");
  const edited = await call("edit_file", {
    path: join(dir, "notes.txt"),
    edits: [{ oldText: "deploy", newText: "x" }],
  });
  expect(edited.isError).toBe(true);
  expect(textOf(edited)).toContain("in-place edits are not allowed");
  expect(readFileSync(join(dir, "notes.txt"), "utf8")).toContain("deploy notes");
  expect(existsSync(join(dir, "x.txt"))).toBe(false);
  const env = await call("read_text_file", { path: join(dir, ".env") });
  expect(textOf(env)).toContain(".env files stay private");

  // A write outside drafts/ is refused (safe paths); one inside is rewritten to the absolute path and runs.
  for (const path of [join(dir, "evil.txt"), "../evil.txt"]) {
    const outside = await call("write_file", { path, content: "x" });
    expect(outside.isError, path).toBe(true);
    expect(textOf(outside)).toContain("invalid path");
  }
  expect(existsSync(join(dir, "evil.txt"))).toBe(false);
  const inside = await call("write_file", { path: "plan.txt", content: "a draft" });
  expect(inside.isError, textOf(inside)).not.toBe(true);
  expect(readFileSync(join(dir, "drafts", "plan.txt"), "utf8")).toBe("a draft");

  // A planted secret comes back redacted in the text and in structuredContent.
  const read = await call("read_text_file", { path: join(dir, "notes.txt") });
  expect(read.isError).not.toBe(true);
  expect(textOf(read)).toContain("deploy notes");
  expect(JSON.stringify(read.structuredContent)).toContain("deploy notes");
  expect(JSON.stringify(read)).not.toContain(SECRET);

  // An approval through elicitation: the client answers yes once (the folder is made), then no (refused).
  const yes = await call("create_directory", { path: "approved" });
  expect(yes.isError, textOf(yes)).not.toBe(true);
  expect(existsSync(join(dir, "drafts", "approved"))).toBe(true);
  const no = await call("create_directory", { path: "refused" });
  expect(no.isError).toBe(true);
  expect(existsSync(join(dir, "drafts", "refused"))).toBe(false);
  expect(asked).toHaveLength(2);
  expect(asked[0]).toContain("Create this folder?");

  // A policy edit takes effect mid-session, on the same connection.
  const policyFile = join(dir, "toolware.policy.yaml");
  const reloads = () => stderr().match(/policy version \d+ in force/g)?.length ?? 0;
  writeFileSync(
    policyFile,
    policyText(
      dir,
      "  - name: no-listing\n    match: { tools: [list_directory] }\n    decide: deny\n    reason: listing is off\n",
    ),
  );
  await expect.poll(reloads, { timeout: 15_000 }).toBe(1);
  const listed = await call("list_directory", { path: dir });
  expect(listed.isError).toBe(true);
  expect(textOf(listed)).toContain("listing is off");

  // A malformed edit is refused with its line number on stderr; the old policy keeps serving.
  const good = readFileSync(policyFile, "utf8");
  const line = good.split("\n").length + 1; // `good` ends in a newline: the broken rule's `decide` is on this line
  writeFileSync(policyFile, `${good}  - name: broken\n    decide: maybe\n`);
  await expect.poll(stderr, { timeout: 15_000 }).toContain("edit is refused");
  expect(stderr()).toContain("the last good policy (version 2) stays in force");
  expect(stderr()).toMatch(new RegExp(`toolware\\.policy\\.yaml:${line}:\\d+: `));
  const still = await call("list_directory", { path: dir });
  expect(textOf(still)).toContain("listing is off");
  const moveStill = await call("move_file", { source: join(dir, "notes.txt"), destination: join(dir, "y.txt") });
  expect(textOf(moveStill)).toContain("moving files is not allowed");
  expect(reloads()).toBe(1);

  // Every call is a line of the audit file, with the rule that decided it.
  const audit = readFileSync(join(dir, "audit.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { tool: string; hooks: { hook: string; action: string }[] });
  expect(audit.map((r) => r.tool)).toEqual([
    "move_file",
    "edit_file",
    "read_text_file",
    "write_file",
    "write_file",
    "write_file",
    "read_text_file",
    "create_directory",
    "create_directory",
    "list_directory",
    "list_directory",
    "move_file",
  ]);
  // The deciding rule, from the decision hook's own entry (`policy:packs` is the rules' packs, not a decision).
  const rules = audit.map((r) => r.hooks.find((h) => h.hook.startsWith("policy:") && h.hook !== "policy:packs"));
  expect(rules.map((h) => h?.hook)).toEqual([
    "policy:no-moves",
    "policy:no-in-place-edits",
    "policy:no-env-files",
    "policy:default", // the safe path refused it (a pack of writes-in-drafts); no rule denied it
    "policy:default",
    "policy:default",
    "policy:default",
    "policy:ask-before-mkdir",
    "policy:ask-before-mkdir",
    "policy:no-listing",
    "policy:no-listing",
    "policy:no-moves",
  ]);
  // The approved call and the refused one, both by the approval rule.
  expect(rules.slice(7, 9).map((h) => h?.action)).toEqual(["proceeded", "blocked"]);
  expect(audit[3]?.hooks).toContainEqual(expect.objectContaining({ hook: "policy:packs", action: "blocked" }));
}

describe("toolware gateway in front of the real server-filesystem: the issue's Done-when list", () => {
  it("over stdio, with the SDK's Client", async () => {
    const dir = workspace();
    const running = await overStdio(dir);
    try {
      await doneWhen(dir, running);
    } finally {
      await running.client.close();
    }
  }, 120_000);

  it("over Streamable HTTP (--listen), with the SDK's Client", async () => {
    const dir = workspace();
    const running = await overHttp(dir);
    try {
      await doneWhen(dir, running);
    } finally {
      await running.client.close();
      const child = children.at(-1) as ChildProcess;
      const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    }
  }, 120_000);

  it("--shadow: decides and reports every call on stderr, hides nothing, blocks and asks nothing", async () => {
    const dir = workspace();
    writeFileSync(join(dir, "gateway.json"), "{}"); // hideDenied left at its default: shadow still lists everything
    const running = await overStdio(dir, ["--shadow"]);
    const { client, stderr, asked } = running;
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("move_file");
      const moved = await client.callTool({
        name: "move_file",
        arguments: { source: join(dir, "notes.txt"), destination: join(dir, "moved.txt") },
      });
      expect(moved.isError, textOf(moved)).not.toBe(true);
      expect(existsSync(join(dir, "moved.txt"))).toBe(true);
      const made = await client.callTool({ name: "create_directory", arguments: { path: "shadowed" } });
      expect(made.isError, textOf(made)).not.toBe(true);
      expect(asked).toEqual([]);
      await expect.poll(stderr).toContain("toolware gateway: shadow deny move_file (rule no-moves)\n");
      expect(stderr()).toContain("toolware gateway: shadow approve create_directory (rule ask-before-mkdir)\n");
      // The read of the moved secret is still redacted: packs run in shadow mode, only decisions are not enforced.
      const read = await client.callTool({ name: "read_text_file", arguments: { path: join(dir, "moved.txt") } });
      expect(JSON.stringify(read)).not.toContain(SECRET);
    } finally {
      await client.close();
    }
  }, 120_000);
});
