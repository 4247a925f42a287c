import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ToolHooks } from "@toolware/core";
import { guardClient } from "@toolware/mcp";
import { approval } from "@toolware/packs/approval";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Approver, Inbox, InboxRequest } from "../contract.js";
import { inboxApproval } from "../gate.js";
import { openInbox, type StoreKind, sqliteKind } from "../test-utils.js";

const ran: string[] = [];

// A real MCP server and a guarded client over the SDK's in-memory transport: the client cannot wait.
async function connect(inbox: Inbox): Promise<Client> {
  const server = new McpServer({ name: "mail", version: "1.0.0" });
  server.registerTool("send_email", { inputSchema: { to: z.string() } }, async ({ to }) => {
    ran.push(to);
    return { content: [{ type: "text", text: `sent to ${to}` }] };
  });
  const hooks = new ToolHooks();
  hooks.use(approval({ tools: ["send_email"], ...inboxApproval({ inbox, mode: "defer", caller: "mailer" }) }));
  const client = guardClient(new Client({ name: "agent", version: "1.0.0" }), hooks);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

const textOf = (result: unknown): string =>
  ((result as { content?: { text?: string }[] }).content?.[0]?.text ?? "") as string;

describe("MCP: a client that cannot wait gets the inbox URL at once, and its retry applies the decision once", () => {
  let kind: StoreKind;
  let inbox: Inbox;
  let boss: Approver;
  beforeAll(async () => {
    kind = sqliteKind();
    ({ inbox, boss } = await openInbox(kind));
  });
  afterAll(async () => {
    await inbox.close();
    await kind.stop();
  });
  const call = (client: Client, callId: string, to: string) =>
    client.callTool({ name: "send_email", arguments: { to }, _meta: { "toolware/callId": callId } });

  it("deferred with the URL; approved; the same call again runs once, a third time is refused", async () => {
    ran.length = 0;
    const client = await connect(inbox);
    const first = await call(client, "m1", "ann@example.com");
    expect(first.isError).toBe(true);
    const [request] = (await inbox.list({ state: "pending" })).filter((r) => r.binding.callId === "m1");
    const r = request as InboxRequest;
    expect(textOf(first)).toContain(`waits for approval in the inbox (request ${r.id}: ${inbox.urlOf(r.id)})`);
    await inbox.decide(r.id, { approver: boss, approve: true, digest: r.binding.digest });
    // The same id with other arguments is another call: a new request, not this approval.
    expect((await call(client, "m1", "mallory@example.com")).isError).toBe(true);
    // A client that reconnects (a new process) and retries the call gets it run, once.
    await client.close();
    const again = await connect(inbox);
    const second = await call(again, "m1", "ann@example.com");
    expect(second.isError).not.toBe(true);
    expect(textOf(second)).toBe("sent to ann@example.com");
    const third = await call(again, "m1", "ann@example.com");
    expect(third.isError).toBe(true);
    expect(textOf(third)).toContain("was used already");
    expect(ran).toEqual(["ann@example.com"]);
    await again.close();
  });

  it("rejected: the retry reads the approver's reason; edited: the retry runs the edited arguments", async () => {
    ran.length = 0;
    const client = await connect(inbox);
    await call(client, "m2", "ceo@example.com");
    await call(client, "m3", "all@example.com");
    const pending = await inbox.list({ state: "pending" });
    const m2 = pending.find((p) => p.binding.callId === "m2") as InboxRequest;
    const m3 = pending.find((p) => p.binding.callId === "m3") as InboxRequest;
    await inbox.decide(m2.id, { approver: boss, approve: false, reason: "not the CEO", digest: m2.binding.digest });
    await inbox.edit(m3.id, { approver: boss, input: { to: "team@example.com" }, digest: m3.binding.digest });
    expect(textOf(await call(client, "m2", "ceo@example.com"))).toContain("send_email was not approved: not the CEO");
    expect(textOf(await call(client, "m3", "all@example.com"))).toBe("sent to team@example.com");
    expect(ran).toEqual(["team@example.com"]);
    await client.close();
  });
});
