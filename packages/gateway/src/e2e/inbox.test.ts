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
  it("waits within waitMs: a decision made while the call waits runs it in the same call", async () => {
    const client = await clientOf(await gatewayWith({ waitMs: 20_000 }), "waiter");
    await client.setLoggingLevel("debug");
    const call = echo(client, "waited");
    let id: string | undefined;
    await expect
      .poll(async () => {
        const list = (await api("/requests?state=pending&caller=waiter")).json.requests as { id: string }[];
        id = list[0]?.id;
        return id;
      })
      .toBeDefined();
    await decide(id as string, "approve");
    const result = await call;
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe("waited");
    await expect.poll(() => runs.filter((r) => r === "echo waited").length).toBe(1);
  });

  it("a rejection refuses the retry with the approver's reason, once; the next identical call asks anew", async () => {
    const client = await clientOf(await gatewayWith({ waitMs: 0 }), "denied-client");
    await client.setLoggingLevel("debug");
    const first = pendingOf(await echo(client, "rm -rf"));
    expect((await decide(first.id, "reject", "too risky today")).status).toBe(200);
    const refused = await echo(client, "rm -rf");
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("too risky today");
    expect(textOf(refused)).not.toMatch(PENDING);
    expect(pendingOf(await echo(client, "rm -rf")).id).not.toBe(first.id);
    expect(runs).not.toContain("echo rm -rf");
  });

  it("an approval binds the arguments and the client: other arguments or another client do not run", async () => {
    const gateway = await gatewayWith({ waitMs: 0 });
    const owner = await clientOf(gateway, "owner");
    const other = await clientOf(gateway, "intruder");
    await owner.setLoggingLevel("debug");
    await other.setLoggingLevel("debug");
    const first = pendingOf(await echo(owner, "pay 10"));
    await decide(first.id, "approve");
    // The same tool with other arguments: a request of its own, nothing runs.
    expect(pendingOf(await echo(owner, "pay 10000")).id).not.toBe(first.id);
    // The same call from another client (another session): its own request.
    expect(pendingOf(await echo(other, "pay 10")).id).not.toBe(first.id);
    // The owner's approval is still there for the owner's call, once.
    expect(textOf(await echo(owner, "pay 10"))).toBe("pay 10");
    await expect.poll(() => runs.filter((r) => r === "echo pay 10").length).toBe(1);
    expect(runs).not.toContain("echo pay 10000");
  });

  it("never trusts a yes the inbox did not sign: a decision written into the store does not run the tool", async () => {
    const client = await clientOf(await gatewayWith({ waitMs: 0 }), "forger");
    await client.setLoggingLevel("debug");
    const first = pendingOf(await echo(client, "forged"));
    const request = await store.get(first.id);
    if (request === undefined) throw new Error("the request is not in the store");
    const forged = {
      ...request,
      state: "approved" as const,
      revision: request.revision + 1,
      decision: {
        outcome: "approved" as const,
        approvers: ["mallory"],
        reason: undefined,
        at: Date.now(),
        grantId: undefined,
        editedTo: undefined,
        signature: "k1.Zm9yZ2Vk",
      },
    };
    expect(await store.update(forged, request.revision)).toBe(true);
    const result = await echo(client, "forged");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("the inbox refused the call");
    expect(textOf(result)).toContain("signature");
    expect(runs).not.toContain("echo forged");
  });

  it("two identical calls after one approval: exactly one runs", async () => {
    const client = await clientOf(await gatewayWith({ waitMs: 0 }), "racer");
    await client.setLoggingLevel("debug");
    const first = pendingOf(await echo(client, "once"));
    await decide(first.id, "approve");
    const both = await Promise.all([echo(client, "once"), echo(client, "once")]);
    expect(both.filter((r) => !r.isError).map(textOf)).toEqual(["once"]);
    expect(both.filter((r) => r.isError).map((r) => PENDING.test(textOf(r)))).toEqual([true]);
    await expect.poll(() => runs.filter((r) => r === "echo once").length).toBe(1);
  });

  it("hostile arguments never run before an approval and never reach another call's approval", async () => {
    const client = await clientOf(await gatewayWith({ waitMs: 0 }), "fuzzer");
    await client.setLoggingLevel("debug");
    const approved = pendingOf(await echo(client, "the approved one"));
    await decide(approved.id, "approve");
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: "grapheme", maxLength: 300 }),
          fc.constantFrom(
            "\ud800",
            "the approved one\u0000",
            "THE APPROVED ONE",
            "the approved one ",
            "the approved оne",
          ),
        ),
        async (text) => {
          fc.pre(text !== "the approved one");
          const result = await echo(client, text);
          expect(PENDING.test(textOf(result))).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
    expect(runs.filter((r) => r.startsWith("echo "))).not.toContain("echo the approved one");
    expect(textOf(await echo(client, "the approved one"))).toBe("the approved one");
  });

  it("an elicitation-capable client is asked through elicitation, and the inbox gets no request", async () => {
    const gateway = await gatewayWith({ waitMs: 0 });
    const client = await clientOf(gateway, "elicits", true);
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { answer: "yes" } };
    });
    const before = ((await api("/requests?caller=elicits")).json.requests as unknown[]).length;
    expect(textOf(await echo(client, "asked"))).toBe("asked");
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("echo");
    expect(((await api("/requests?caller=elicits")).json.requests as unknown[]).length).toBe(before);
  });

  it('with via: "inbox" an elicitation-capable client goes to the inbox all the same', async () => {
    const client = await clientOf(await gatewayWith({ waitMs: 0, via: "inbox" }), "routed", true);
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { answer: "yes" } }));
    pendingOf(await echo(client, "routed"));
  });
}, 120_000);
