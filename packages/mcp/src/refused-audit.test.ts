// A tools/call refused at the client's boundary (arguments that are not an object) is still one line of the audit trail.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { type AuditRecord, audit } from "@toolware/packs/audit";
import { afterAll, describe, expect, it } from "vitest";
import { guardClient } from "./index.js";
import { filesServer, firstText, link, newClient } from "./test-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "toolware-mcp-audit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lines = (file: string): AuditRecord[] =>
  readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as AuditRecord);

describe("guardClient with the audit pack", () => {
  it("writes one line per call whose arguments are no object, on every path, and one for a normal call", async () => {
    const file = join(dir, "trail.jsonl");
    const hooks = new ToolHooks();
    hooks.use(audit({ file }));
    const outcomes: ToolCallOutcome[] = [];
    const { server, seen } = filesServer();
    const client = guardClient(newClient(), hooks, { onOutcome: (o) => outcomes.push(o) });
    await link(server, client);
    const sent = [
      await client.callTool({ name: "read_note", arguments: "hello" as never }),
      await Client.prototype.callTool.call(client, { name: "read_note", arguments: [1, 2] as never }),
      await client.request(
        { method: "tools/call", params: { name: "read_note", arguments: 7 as never } },
        CallToolResultSchema,
      ),
    ];
    for (const result of sent) expect(firstText(result)).toContain("TOOLWARE_INVALID_INPUT");
    expect(seen).toEqual([]);
    await client.callTool({ name: "read_note", arguments: { path: "a" } });
    expect(seen.map((s) => s.tool)).toEqual(["read_note"]);
    expect(outcomes.map((o) => toolwareCode(o.error) ?? o.status)).toEqual([
      "TOOLWARE_INVALID_INPUT",
      "TOOLWARE_INVALID_INPUT",
      "TOOLWARE_INVALID_INPUT",
      "ok",
    ]);
    const trail = lines(file);
    expect(trail.map((l) => [l.tool, l.status, l.code ?? null, l.toolRan, l.input])).toEqual([
      ["read_note", "error", "TOOLWARE_INVALID_INPUT", false, { arguments: "hello" }],
      ["read_note", "error", "TOOLWARE_INVALID_INPUT", false, { arguments: [1, 2] }],
      ["read_note", "error", "TOOLWARE_INVALID_INPUT", false, { arguments: 7 }],
      ["read_note", "ok", null, true, { path: "a" }],
    ]);
    expect(trail.map((l) => l.callId)).toEqual(outcomes.map((o) => o.callId));
  });
});
