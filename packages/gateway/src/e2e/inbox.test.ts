import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolHooks } from "@toolware/core";
import { createInbox, createSigner, type Inbox, type InboxStore, sqliteInboxStore } from "@toolware/inbox";
import { createInboxServer, type InboxListening } from "@toolware/inbox/server";
import { loadPolicy } from "@toolware/policy";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, type Gateway, type GatewayApprovalsOptions, gatewayApprovals } from "../index.js";
import { textOf } from "../test-fixtures.js";
import { startFeatureServer } from "./upstream-fixture.js";

const KEYS = [{ kid: "k1", alg: "HS256" as const, secret: "a test secret of more than thirty-two bytes" }];
const POLICY = {
  version: 1,
  name: "inbox-approvals",
  default: "allow",
  rules: [{ name: "ask-echo", match: { tools: ["echo"] }, decide: "approve", approval: { timeout: "1m" } }],
};
const PENDING = /awaits approval in the inbox \(request (req_[A-Za-z0-9_-]{22}): (http:\/\/\S+)\)/;

describe("gateway approvals through the inbox: a client without elicitation, a real inbox server, a real upstream", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolware-gw-inbox-"));
  let upstream: Awaited<ReturnType<typeof startFeatureServer>>;
  let serverInbox: Inbox;
  let gatewayInbox: Inbox;
  let store: InboxStore;
  let listening: InboxListening;
  let token: string;
  const gateways: Gateway[] = [];
  const clients: Client[] = [];
  const runs: string[] = [];

  // The approver's side: the inbox server's HTTP API, with a bearer token.
  async function api(path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const response = await fetch(`${listening.url}/api${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  }
  async function decide(id: string, action: "approve" | "reject", reason?: string) {
    const { request } = (await api(`/requests/${id}`)).json as { request: { digest: string } };
    return api(`/requests/${id}/${action}`, { digest: request.digest, ...(reason === undefined ? {} : { reason }) });
  }

  async function gatewayWith(options: Omit<GatewayApprovalsOptions, "inbox">): Promise<Gateway> {
    const policy = await loadPolicy(POLICY as never);
    const hooks = new ToolHooks({ humanInput: gatewayApprovals({ inbox: gatewayInbox, ...options }) });
    hooks.use(policy);
    const gateway = createGateway({ upstreams: [{ name: "f", url: upstream.url }], hooks, policy });
    await gateway.start();
    gateways.push(gateway);
    return gateway;
  }
  async function clientOf(gateway: Gateway, name = "no-elicit", elicitation = false): Promise<Client> {
    const client = new Client({ name, version: "1.0.0" }, { capabilities: elicitation ? { elicitation: {} } : {} });
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => void runs.push(String(n.params.data)));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await gateway.connect(b);
    await client.connect(a);
    clients.push(client);
    return client;
  }
  const echo = (client: Client, text: string) => client.callTool({ name: "echo", arguments: { text } });
  function pendingOf(result: unknown): { id: string; url: string } {
    expect((result as { isError?: boolean }).isError).toBe(true);
    const match = PENDING.exec(textOf(result));
    if (match === null) throw new Error(`not a pending result: ${textOf(result)}`);
    return { id: match[1] as string, url: match[2] as string };
  }
  beforeAll(async () => {
    upstream = await startFeatureServer();
    const file = join(dir, "inbox.db");
    serverInbox = createInbox({ store: sqliteInboxStore({ file }), signer: createSigner({ keys: KEYS }) });
    listening = await createInboxServer({ inbox: serverInbox, port: 0 }).listen();
    ({ token } = await serverInbox.approvers.add({ name: "alice", roles: ["approver"] }));
    // The gateway opens the same store with the same keys, as an agent process does.
    store = sqliteInboxStore({ file });
    gatewayInbox = createInbox({ store, signer: createSigner({ keys: KEYS }), baseUrl: listening.url });
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) await c.close();
    for (const g of gateways) await g.close();
    await listening.close();
    await gatewayInbox.close();
    await serverInbox.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers pending with the inbox URL and request id; the same call again after approval runs once", async () => {
    const client = await clientOf(await gatewayWith({ waitMs: 0 }));
    await client.setLoggingLevel("debug");
    const first = pendingOf(await echo(client, "one"));
    expect(first.url).toBe(`${listening.url}/requests/${first.id}`);
    // Before a decision the same call joins its request: no second request, no run.
    expect(pendingOf(await echo(client, "one")).id).toBe(first.id);
    expect((await decide(first.id, "approve")).status).toBe(200);
    const ran = await echo(client, "one");
    expect(ran.isError).toBeFalsy();
    expect(textOf(ran)).toBe("one");
    // Used once: the third identical call asks anew, with a new request.
    const third = pendingOf(await echo(client, "one"));
    expect(third.id).not.toBe(first.id);
    // The approver cannot decide the used request again either.
    expect((await decide(first.id, "approve")).status).toBe(409);
    await expect.poll(() => runs.filter((r) => r === "echo one").length).toBe(1);
    expect(pendingOf(await echo(client, "one")).id).toBe(third.id);
    expect(runs.filter((r) => r === "echo one")).toHaveLength(1);
  });
}, 120_000);
