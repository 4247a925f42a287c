import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolHooks } from "@toolware/core";
import { type WatchedPolicyPack, watchPolicy } from "@toolware/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, type Gateway, type GatewayEvent } from "../index.js";
import { FS_BIN, fsPolicy, SECRET, textOf, workspace } from "../test-fixtures.js";

describe("the gateway in front of the real server-filesystem, a client over an in-process transport", () => {
  const { dir, policyFile } = workspace();
  const events: GatewayEvent[] = [];
  let policy: WatchedPolicyPack;
  let gateway: Gateway;
  const client = new Client({ name: "e2e", version: "1.0.0" });

  beforeAll(async () => {
    policy = await watchPolicy(policyFile, { debounceMs: 10 });
    const hooks = new ToolHooks();
    hooks.use(policy);
    gateway = createGateway({
      upstreams: [{ name: "fs", command: process.execPath, args: [FS_BIN, dir] }],
      hooks,
      policy,
      onEvent: (e) => events.push(e),
    });
    await gateway.start();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await gateway.connect(a);
    await client.connect(b);
  }, 60_000);
  afterAll(async () => {
    policy.close();
    await client.close();
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the server's tools under their own names, hiding the one the policy denies outright", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["read_text_file", "write_file", "list_directory"]));
    expect(names).not.toContain("move_file");
    const all = await gateway.tools();
    expect(all.find((t) => t.name === "move_file")).toMatchObject({ upstream: "fs", hidden: true });
  });

  it("answers a call to the hidden tool, and to look-alikes of its name, as to an unknown tool", async () => {
    for (const name of ["move_file", "MOVE_FILE", "move_fіle", "move_file\u200b", "fs__move_file"]) {
      const result = await client.callTool({
        name,
        arguments: { source: join(dir, "notes.txt"), destination: join(dir, "x") },
      });
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).toContain("not found");
    }
    expect(existsSync(join(dir, "notes.txt"))).toBe(true);
  });

  it("refuses a write outside drafts/, runs one inside it", async () => {
    for (const path of [join(dir, "evil.txt"), "../evil.txt", "%2e%2e/evil.txt"]) {
      const outside = await client.callTool({ name: "write_file", arguments: { path, content: "x" } });
      expect(outside.isError, path).toBe(true);
      expect(textOf(outside)).toContain("invalid path");
    }
    expect(existsSync(join(dir, "evil.txt"))).toBe(false);
    // A relative path is checked under drafts/ and rewritten to the absolute path the server needs.
    const inside = await client.callTool({ name: "write_file", arguments: { path: "ok.txt", content: "fine" } });
    expect(inside.isError, textOf(inside)).not.toBe(true);
    expect(readFileSync(join(dir, "drafts", "ok.txt"), "utf8")).toBe("fine");
  });

  it("redacts a planted secret in the text and in structuredContent", async () => {
    const result = await client.callTool({ name: "read_text_file", arguments: { path: join(dir, "notes.txt") } });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toContain("deploy notes");
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it("applies a policy edit mid-session; a malformed edit is refused with its line and the old policy serves", async () => {
    writeFileSync(
      policyFile,
      fsPolicy(
        dir,
        "  - name: no-notes\n    match: { tools: [read_text_file], when: 'args.path.endsWith(\"notes.txt\")' }\n    decide: deny\n    reason: the notes are off today\n",
      ),
    );
    expect(await policy.reload()).toBe(true);
    const denied = await client.callTool({ name: "read_text_file", arguments: { path: join(dir, "notes.txt") } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toContain("the notes are off today");
    writeFileSync(policyFile, `${fsPolicy(dir)}  - name: broken\n    decide: [not, a, decision\n`);
    const errors: unknown[] = [];
    const off = policy.on((e) => e.type === "reload-error" && errors.push(e.error));
    expect(await policy.reload()).toBe(false);
    off();
    expect(String(errors[0])).toMatch(/toolware\.policy\.yaml:\d+/);
    const still = await client.callTool({ name: "read_text_file", arguments: { path: join(dir, "notes.txt") } });
    expect(textOf(still)).toContain("the notes are off today");
  });

  it("writes every call to the audit file, a policy denial with its reason", async () => {
    const lines = readFileSync(join(dir, "audit.jsonl"), "utf8").trim().split("\n");
    const calls = events.filter((e) => e.type === "call");
    // Every call that reached the chain is one audit line (hidden and unknown names never reach it).
    expect(lines).toHaveLength(calls.length);
    // A watched policy decides in one hook (its rules change on reload) that names the deciding rule in the trace:
    // every call in the audit file with its rule, as the gateway issue asks.
    const denials = lines.map((l) => JSON.parse(l)).filter((r) => r.reason === "the notes are off today");
    expect(denials).toHaveLength(2);
    expect(denials[0].hooks).toEqual([expect.objectContaining({ hook: "policy:no-notes", action: "blocked" })]);
    expect(lines.filter((l) => l.includes("write_file"))).toHaveLength(4);
  });
});
