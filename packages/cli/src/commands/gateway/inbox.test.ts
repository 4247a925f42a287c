import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createInbox, createSigner, sqliteInboxStore } from "@toolware/inbox";
import { createInboxServer } from "@toolware/inbox/server";
import { describe, expect, it } from "vitest";
import { inProcess, scratch } from "../test-fixtures.js";
import { BIN as bin, FS_BIN, ROOT as root, TSX_LOADER as tsx } from "./test-fixtures.js";

const KEYS = [{ kid: "k1", alg: "HS256" as const, secret: "a test secret of more than thirty-two bytes" }];
const POLICY = `version: 1
name: cli-inbox
default: allow
rules:
  - name: ask-reads
    match: { tools: [read_text_file] }
    decide: approve
`;
const textOf = (r: unknown) =>
  ((r as CallToolResult).content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("\n");
const PENDING = /awaits approval in the inbox \(request (req_[A-Za-z0-9_-]{22}): (\S+)\)/;

describe("toolware gateway --inbox", () => {
  const { dir, write } = scratch("toolware-cli-gw-inbox-");
  write("policy.yaml", POLICY);
  mkdirSync(join(dir, "files"));
  write("files/notes.txt", "the notes\n");

  it("a client without elicitation gets the inbox URL; approved over the inbox's API, the same call runs once", async () => {
    const file = join(dir, "inbox.db");
    const inbox = createInbox({ store: sqliteInboxStore({ file }), signer: createSigner({ keys: KEYS }) });
    const listening = await createInboxServer({ inbox, port: 0 }).listen();
    const { token } = await inbox.approvers.add({ name: "alice" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        ...["--conditions", "@toolware/source", "--import", tsx, bin, "gateway", "--policy", join(dir, "policy.yaml")],
        ...["--inbox", listening.url, "--inbox-store", `sqlite:${file}`, "--inbox-wait", "0", "--config"],
        ...[write("gw.json", JSON.stringify({ inboxKeysEnv: "MY_INBOX_KEYS" })), "--", process.execPath, FS_BIN],
        join(dir, "files"),
      ],
      cwd: root,
      env: { ...(process.env as Record<string, string>), MY_INBOX_KEYS: JSON.stringify(KEYS) },
      stderr: "pipe",
    });
    const client = new Client({ name: "cli-no-elicit", version: "1.0.0" });
    await client.connect(transport);
    const read = () =>
      client.callTool({ name: "read_text_file", arguments: { path: join(dir, "files", "notes.txt") } });
    try {
      const first = await read();
      expect(first.isError).toBe(true);
      const match = PENDING.exec(textOf(first));
      expect(match?.[2]).toBe(`${listening.url}/requests/${match?.[1]}`);
      const id = match?.[1] as string;
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const seen = (await (await fetch(`${listening.url}/api/requests/${id}`, { headers })).json()) as {
        request: { digest: string; caller: string };
      };
      expect(seen.request.caller).toBe("cli-no-elicit");
      const approved = await fetch(`${listening.url}/api/requests/${id}/approve`, {
        method: "POST",
        headers,
        body: JSON.stringify({ digest: seen.request.digest }),
      });
      expect(approved.status).toBe(200);
      const ran = await read();
      expect(ran.isError).toBeFalsy();
      expect(textOf(ran)).toContain("the notes");
      expect(PENDING.exec(textOf(await read()))?.[1]).not.toBe(id);
    } finally {
      await client.close();
      await listening.close();
      await inbox.close();
    }
  }, 60_000);

  it("refuses a bad --inbox, --inbox-wait or --inbox-store, inbox flags without --inbox, and missing keys", async () => {
    const run = (...flags: string[]) => inProcess(["gateway", "--policy", "policy.yaml", ...flags, "--", "node"], dir);
    const url = await run("--inbox", "ftp://x");
    expect(url.code).toBe(2);
    expect(url.err).toContain("--inbox takes the inbox's http(s) URL");
    const wait = await run("--inbox", "http://127.0.0.1:7717", "--inbox-wait", "soon");
    expect(wait.code).toBe(2);
    expect(wait.err).toContain("--inbox-wait takes milliseconds");
    const store = await run("--inbox", "http://127.0.0.1:7717", "--inbox-store", "mysql://x");
    expect(store.code).toBe(2);
    expect(store.err).toContain("--inbox-store takes sqlite:PATH");
    const alone = await run("--inbox-wait", "5");
    expect(alone.code).toBe(2);
    expect(alone.err).toContain("go with --inbox URL");
    const config = write("nokeys.json", JSON.stringify({ inboxKeysEnv: "TOOLWARE_TEST_NO_SUCH_KEYS" }));
    const keys = await run("--inbox", "http://127.0.0.1:7717", "--config", config);
    expect(keys.code).toBe(1);
    expect(keys.err).toContain("no inbox signing keys in $TOOLWARE_TEST_NO_SUCH_KEYS");
    const badName = await run(
      "--inbox",
      "http://127.0.0.1:7717",
      "--config",
      write("bad.json", '{"inboxKeysEnv":"a b"}'),
    );
    expect(badName.code).toBe(1);
    expect(badName.err).toContain("inboxKeysEnv");
    const help = await inProcess(["gateway", "--help"], dir);
    expect(help.out).toMatch(/--inbox URL/);
    expect(help.out).toMatch(/--inbox-store SPEC/);
  });
});
