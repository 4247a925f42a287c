// Rate limits per client: the policy file's `key: caller` counts each gateway client apart.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolHooks } from "@toolware/core";
import { loadPolicy } from "@toolware/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFeatureServer } from "./e2e/upstream-fixture.js";
import { createGateway, type Gateway, gatewayCall } from "./index.js";
import { textOf } from "./test-fixtures.js";

const limited = (key: string) => ({
  version: 1,
  name: "per-client",
  default: "allow",
  rules: [{ name: "two-a-minute", packs: { "rate-limit": { max: 2, per: "1m", key } } }],
});

describe("rate limits keyed by caller, through the gateway", () => {
  let upstream: Awaited<ReturnType<typeof startFeatureServer>>;
  const gateways: Gateway[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    upstream = await startFeatureServer();
  });
  afterAll(async () => {
    for (const c of clients) await c.close();
    for (const g of gateways) await g.close();
    await upstream.close();
  });

  async function gatewayWith(key: string, caller: Parameters<typeof loadPolicy>[1] extends infer O ? O : never) {
    const policy = await loadPolicy(limited(key) as never, caller);
    const hooks = new ToolHooks();
    hooks.use(policy);
    const gateway = createGateway({ upstreams: [{ name: "feat", url: upstream.url }], hooks, policy });
    await gateway.start();
    gateways.push(gateway);
    return async (name: string) => {
      const client = new Client({ name, version: "1.0.0" });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await gateway.connect(a);
      await client.connect(b);
      clients.push(client);
      return async (tool = "echo") => {
        const r = await client.callTool({ name: tool, arguments: tool === "echo" ? { text: "x" } : {} });
        return r.isError === true ? `refused: ${textOf(r)}` : "ok";
      };
    };
  }

  const byClient = { caller: (ctx: Parameters<typeof gatewayCall>[0]) => gatewayCall(ctx)?.client?.name };

  it("key: caller gives each client its own count", async () => {
    const connect = await gatewayWith("caller", byClient);
    const alice = await connect("alice");
    const bob = await connect("bob");
    expect([await alice(), await alice(), await alice()]).toEqual(["ok", "ok", expect.stringMatching(/Rate limit/)]);
    expect([await bob(), await bob()]).toEqual(["ok", "ok"]);
    expect(await bob()).toMatch(/Rate limit/);
  });

  it("key: tool+caller counts each tool of each client apart; a caller that throws fails the call", async () => {
    const connect = await gatewayWith("tool+caller", byClient);
    const carol = await connect("carol");
    expect([await carol(), await carol(), await carol()]).toEqual(["ok", "ok", expect.stringMatching(/Rate limit/)]);
    expect(await carol("wipe")).toBe("ok");
    const broken = await gatewayWith("caller", {
      caller: () => {
        throw new Error("no identity");
      },
    });
    const dave = await broken("dave");
    expect(await dave()).toMatch(/^refused/);
  });

  it("without a caller option every client is the same unknown caller", async () => {
    const connect = await gatewayWith("caller", {});
    const erin = await connect("erin");
    const frank = await connect("frank");
    expect([await erin(), await frank(), await erin()]).toEqual(["ok", "ok", expect.stringMatching(/Rate limit/)]);
  });
});
