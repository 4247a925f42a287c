// Rate limits and loop guards per upstream and per client through the gateway: the policy file's `key: upstream`
// and loop-guard `scope: caller` / `scope: upstream`, with the gateway's upstream and client named by gatewayCall.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type ToolCallHookContext, ToolHooks } from "@toolware/core";
import { type LoadPolicyOptions, loadPolicy } from "@toolware/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFeatureServer } from "./e2e/upstream-fixture.js";
import { createGateway, type Gateway, gatewayCall } from "./index.js";
import { textOf } from "./test-fixtures.js";

const policyWith = (packs: Record<string, unknown>) => ({
  version: 1,
  name: "per-upstream",
  default: "allow",
  rules: [{ name: "limited", packs }],
});

// As the `toolware gateway` command names them.
const named: LoadPolicyOptions = {
  caller: (ctx: ToolCallHookContext) => gatewayCall(ctx)?.client?.name,
  upstream: (ctx: ToolCallHookContext) => gatewayCall(ctx)?.upstream,
};

describe("limits per upstream and loop guards per client, through a gateway with two upstreams", () => {
  let server: Awaited<ReturnType<typeof startFeatureServer>>;
  const gateways: Gateway[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    server = await startFeatureServer();
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    for (const g of gateways) await g.close();
    await server.close();
  });

  // Two upstreams, `fs` and `gh`, both the feature server: their tools are exposed as fs__echo, gh__echo, …
  async function gatewayWith(packs: Record<string, unknown>, options: LoadPolicyOptions = named) {
    const policy = await loadPolicy(policyWith(packs) as never, options);
    const hooks = new ToolHooks();
    hooks.use(policy);
    const gateway = createGateway({
      upstreams: [
        { name: "fs", url: server.url },
        { name: "gh", url: server.url },
      ],
      hooks,
      policy,
    });
    await gateway.start();
    gateways.push(gateway);
    const exposed = (await gateway.tools()).map((t) => t.name);
    expect(exposed).toEqual(expect.arrayContaining(["fs__echo", "gh__echo", "fs__wipe"]));
    return async (clientName: string) => {
      const client = new Client({ name: clientName, version: "1.0.0" });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await gateway.connect(a);
      await client.connect(b);
      clients.push(client);
      return async (tool: string) => {
        const r = await client.callTool({ name: tool, arguments: tool.endsWith("echo") ? { text: "x" } : {} });
        return r.isError === true ? `refused: ${textOf(r)}` : "ok";
      };
    };
  }

  it("key: upstream gives each upstream its own count, shared by its tools and clients", async () => {
    const connect = await gatewayWith({ "rate-limit": { max: 2, per: "1m", key: "upstream" } });
    const alice = await connect("alice");
    const bob = await connect("bob");
    expect([await alice("fs__echo"), await bob("fs__wipe"), await alice("fs__echo")]).toEqual([
      "ok",
      "ok",
      expect.stringMatching(/Rate limit/),
    ]);
    expect([await alice("gh__echo"), await bob("gh__echo")]).toEqual(["ok", "ok"]);
    expect(await bob("gh__wipe")).toMatch(/Rate limit/);
  });

  it("key: caller+upstream gives each client its own count on each upstream", async () => {
    const connect = await gatewayWith({ "rate-limit": { max: 1, per: "1m", key: "caller+upstream" } });
    const alice = await connect("alice");
    const bob = await connect("bob");
    expect([await alice("fs__echo"), await alice("gh__echo"), await bob("fs__echo")]).toEqual(["ok", "ok", "ok"]);
    expect([await alice("fs__echo"), await bob("gh__echo")]).toEqual([expect.stringMatching(/Rate limit/), "ok"]);
  });

  it("loop-guard scope: caller gives each client its own streak", async () => {
    const connect = await gatewayWith({ "loop-guard": { maxRepeats: 2, scope: "caller", action: "block" } });
    const alice = await connect("alice");
    const bob = await connect("bob");
    expect([await alice("fs__echo"), await bob("fs__echo")]).toEqual(["ok", "ok"]);
    expect(await alice("fs__echo")).toMatch(/Loop detected: echo called 2 times in a row by caller:alice/);
    expect(await bob("fs__echo")).toMatch(/Loop detected: echo called 2 times in a row by caller:bob/);
  });

  it("loop-guard scope: upstream gives each upstream its own window", async () => {
    const connect = await gatewayWith({
      "loop-guard": { maxRepeats: false, maxInWindow: 2, windowMs: "1m", scope: "upstream", action: "block" },
    });
    const carol = await connect("carol");
    expect([await carol("fs__echo"), await carol("gh__echo")]).toEqual(["ok", "ok"]);
    expect(await carol("fs__echo")).toMatch(/Loop detected: echo called 2 times within 1m by upstream:fs/);
    expect(await carol("gh__echo")).toMatch(/by upstream:gh/);
  });

  it("an upstream option that throws fails the call closed: the tool never runs", async () => {
    const throwing: LoadPolicyOptions = {
      upstream: () => {
        throw new Error("no upstream");
      },
    };
    for (const packs of [
      { "rate-limit": { max: 5, per: "1m", key: "tool+upstream" } },
      { "loop-guard": { maxRepeats: 3, scope: "caller+upstream", action: "block" } },
    ]) {
      const connect = await gatewayWith(packs, throwing);
      const dave = await connect("dave");
      expect(await dave("fs__wipe")).toMatch(/^refused/);
    }
  });

  it("a misspelt key value is refused with a hint, before the gateway serves", async () => {
    await expect(
      loadPolicy(policyWith({ "rate-limit": { max: 1, per: "1m", key: "tool+upsteam" } }) as never, named),
    ).rejects.toThrow(/did you mean "tool\+upstream"/);
    await expect(loadPolicy(policyWith({ "loop-guard": { scope: "upstreams" } }) as never, named)).rejects.toThrow(
      /did you mean "upstream"/,
    );
  });
});
