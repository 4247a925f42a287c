import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type HumanInputRequest, ToolHooks } from "@toolware/core";
import { type Approver, createInbox, createSigner, type Inbox, sqliteInboxStore } from "@toolware/inbox";
import { loadPolicy } from "@toolware/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asGatewayCall } from "./context.js";
import { startFeatureServer } from "./e2e/upstream-fixture.js";
import { createGateway, type Gateway, type GatewayApprovalsOptions, gatewayApprovals } from "./index.js";
import { textOf } from "./test-fixtures.js";

const KEYS = [{ kid: "k1", alg: "HS256" as const, secret: "a test secret of more than thirty-two bytes" }];
const POLICY = {
  version: 1,
  name: "approvals-unit",
  default: "allow",
  rules: [{ name: "ask-echo", match: { tools: ["echo"] }, decide: "approve" }],
};
const PENDING = /awaits approval in the inbox \(request (req_[A-Za-z0-9_-]{22}): /;

describe("gatewayApprovals() options", () => {
  const inbox = { submit: () => undefined, resume: () => undefined } as unknown as Inbox;
  it("refuses unknown keys with a hint, and values of the wrong kind", () => {
    expect(() => gatewayApprovals({ inbox, waitMS: 5 } as never)).toThrow(
      /unknown option `waitMS`.*did you mean "waitMs"/,
    );
    expect(() => gatewayApprovals(undefined as never)).toThrow(/options object/);
    expect(() => gatewayApprovals({} as never)).toThrow(/needs `inbox`/);
    expect(() => gatewayApprovals({ inbox: { submit() {} } } as never)).toThrow(/needs `inbox`/);
    for (const waitMs of [-1, 1.5, Number.NaN, "10", 2 ** 31])
      expect(() => gatewayApprovals({ inbox, waitMs } as never)).toThrow(/`waitMs` must be a whole number/);
    expect(() => gatewayApprovals({ inbox, timeoutMs: 0 })).toThrow(/`timeoutMs`/);
    expect(() => gatewayApprovals({ inbox, elicitationTimeoutMs: 0 })).toThrow(/`elicitationTimeoutMs`/);
    expect(() => gatewayApprovals({ inbox, via: "slack" } as never)).toThrow(/`via` must be/);
    expect(() => gatewayApprovals({ inbox, identity: "me" } as never)).toThrow(/`identity` must be a function/);
    expect(() => gatewayApprovals({ inbox, requireRole: "" })).toThrow(/`requireRole`/);
    expect(gatewayApprovals({ inbox, waitMs: 0 }).name).toBe("gatewayApprove");
  });

  it("refuses to answer outside a gateway call", async () => {
    const ask = gatewayApprovals({ inbox });
    const request: HumanInputRequest = {
      prompt: "ok?",
      defaultMessage: undefined,
      toolName: "t",
      callId: "c",
      signal: new AbortController().signal,
    };
    await expect(ask(request)).rejects.toThrow(/not a call made through the gateway/);
  });
});

describe("gatewayApprovals() through a gateway", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolware-gw-approvals-"));
  let upstream: Awaited<ReturnType<typeof startFeatureServer>>;
  let inbox: Inbox;
  let alice: Approver;
  const gateways: Gateway[] = [];
  const clients: Client[] = [];

  async function clientWith(
    options: Omit<GatewayApprovalsOptions, "inbox">,
    name: string,
    elicit = false,
    first?: (hooks: ToolHooks) => void,
  ) {
    const policy = await loadPolicy(POLICY as never);
    const hooks = new ToolHooks({ humanInput: gatewayApprovals({ inbox, ...options }) });
    first?.(hooks);
    hooks.use(policy);
    const gateway = createGateway({ upstreams: [{ name: "f", url: upstream.url }], hooks, policy });
    await gateway.start();
    gateways.push(gateway);
    const client = new Client({ name, version: "1.0.0" }, { capabilities: elicit ? { elicitation: {} } : {} });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await gateway.connect(b);
    await client.connect(a);
    clients.push(client);
    return client;
  }
  const echo = (client: Client, text: string) => client.callTool({ name: "echo", arguments: { text } });
  const idOf = (result: unknown): string => {
    const match = PENDING.exec(textOf(result));
    if (match === null) throw new Error(`not pending: ${textOf(result)}`);
    return match[1] as string;
  };
  const digestOf = async (id: string) => (await inbox.get(id))?.binding.digest ?? "";

  beforeAll(async () => {
    upstream = await startFeatureServer();
    inbox = createInbox({
      store: sqliteInboxStore({ file: join(dir, "inbox.db") }),
      signer: createSigner({ keys: KEYS }),
    });
    const added = await inbox.approvers.add({ name: "alice", roles: ["ops"] });
    alice = added.approver;
  }, 60_000);
  afterAll(async () => {
    for (const c of clients) await c.close();
    for (const g of gateways) await g.close();
    await inbox.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("passes the request's deadline and role to the inbox; an expired request refuses once, then asks anew", async () => {
    const client = await clientWith({ waitMs: 0, timeoutMs: 300, requireRole: "ops" }, "expiring");
    const id = idOf(await echo(client, "late"));
    const request = await inbox.get(id);
    expect(request?.requireRole).toBe("ops");
    expect(request?.caller).toBe("expiring");
    expect(request?.labels).toMatchObject({ upstream: "f", tool: "echo" });
    await new Promise((r) => setTimeout(r, 400));
    const expired = await echo(client, "late");
    expect(textOf(expired)).toContain("nobody decided before the deadline");
    expect(idOf(await echo(client, "late"))).not.toBe(id);
  });

  it("an edit in the inbox approves other arguments: the gateway cannot hand them on, so the call is refused", async () => {
    const client = await clientWith({ waitMs: 0 }, "edited");
    const id = idOf(await echo(client, "draft"));
    await inbox.edit(id, { approver: alice, input: { text: "final" }, digest: await digestOf(id) });
    const result = await echo(client, "draft");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("edited the arguments");
  });

  it("`via` picks the channel per call; a wrong answer from it refuses the call", async () => {
    const seen: string[] = [];
    const routed = await clientWith(
      {
        waitMs: 0,
        via: (call) => {
          seen.push(`${call.toolName}:${call.exposedName}:${call.canElicit}`);
          return "elicitation";
        },
      },
      "routed",
      true,
    );
    routed.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { answer: "yes" } }));
    expect(textOf(await echo(routed, "hi"))).toBe("hi");
    expect(seen).toEqual(["echo:echo:true"]);
    const broken = await clientWith({ waitMs: 0, via: () => "email" as never }, "broken");
    const result = await echo(broken, "hi");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('`via` answered "email"');
  });

  it("a custom identity binds approvals across sessions; an empty identity refuses", async () => {
    const first = await clientWith({ waitMs: 0, identity: (call) => call.client?.name ?? "x" }, "desk");
    const id = idOf(await echo(first, "shared"));
    await inbox.decide(id, { approver: alice, approve: true, digest: await digestOf(id) });
    const second = await clientWith({ waitMs: 0, identity: (call) => call.client?.name ?? "x" }, "desk");
    expect(textOf(await echo(second, "shared"))).toBe("shared");
    const nobody = await clientWith({ waitMs: 0, identity: () => "" }, "nobody");
    expect(textOf(await echo(nobody, "x"))).toContain("gave no identity");
  });

  it("waits waitMs for a decision, then answers pending", async () => {
    const client = await clientWith({ waitMs: 150 }, "patient");
    const started = Date.now();
    const id = idOf(await echo(client, "slowly"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect((await inbox.get(id))?.state).toBe("pending");
  });

  it("binds the arguments as a hook left them before the approval: the approver sees what runs", async () => {
    const client = await clientWith({ waitMs: 0 }, "rewritten", false, (hooks) => {
      // Further out than the policy's approval gate (priority 500): it runs first, in place.
      hooks.before(
        (ctx) => {
          (ctx.toolInput as { text: string }).text = `${(ctx.toolInput as { text: string }).text}!`;
        },
        { priority: 1000 },
      );
    });
    const id = idOf(await echo(client, "original"));
    expect((await inbox.get(id))?.input).toEqual({ text: "original!" });
    await inbox.decide(id, { approver: alice, approve: true, digest: await digestOf(id) });
    expect(textOf(await echo(client, "original"))).toBe("original!");
    expect(idOf(await echo(client, "original"))).not.toBe(id);
  });

  it("refuses a question whose binding names other arguments than the call carries", async () => {
    const ask = gatewayApprovals({ inbox, waitMs: 0 });
    const call = { session: "s", upstream: "f", exposedName: "echo", client: undefined, elicit: undefined, input: {} };
    const question: HumanInputRequest = {
      prompt: "ok?",
      defaultMessage: undefined,
      toolName: "echo",
      callId: "c1",
      binding: { toolName: "echo", callId: "c1", digest: "sha256:0000" },
      signal: new AbortController().signal,
    };
    await expect(asGatewayCall(call, () => ask(question))).rejects.toThrow(/a hook changed the arguments/);
  });

  it("a closed inbox fails closed: the tool does not run", async () => {
    const closed = createInbox({
      store: sqliteInboxStore({ file: join(dir, "closed.db") }),
      signer: createSigner({ keys: KEYS }),
    });
    await closed.close();
    const policy = await loadPolicy(POLICY as never);
    const hooks = new ToolHooks({ humanInput: gatewayApprovals({ inbox: closed, waitMs: 0 }) });
    hooks.use(policy);
    const gateway = createGateway({ upstreams: [{ name: "f", url: upstream.url }], hooks, policy });
    await gateway.start();
    gateways.push(gateway);
    const client = new Client({ name: "down", version: "1.0.0" });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await gateway.connect(b);
    await client.connect(a);
    clients.push(client);
    const result = await echo(client, "x");
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("the inbox refused the call");
  });
}, 120_000);
