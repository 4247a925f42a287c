import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolHooks } from "@toolware/core";
import { afterEach, describe, expect, it } from "vitest";
import { createGateway, type Gateway, type GatewayEvent, type GatewayOptions } from "../index.js";
import { textOf } from "../test-fixtures.js";

// Plain JavaScript, so the child starts without a loader (and stays out of the coverage of src/**/*.ts).
const fixture = fileURLToPath(new URL("./hostile-upstream.mjs", import.meta.url));
/** The hostile stdio upstream as a child process. */
export const HOSTILE = { name: "h", command: process.execPath, args: [fixture] };

const open: Gateway[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((g) => g.close({ timeoutMs: 100 })));
});

async function serve(extra: Partial<GatewayOptions> = {}) {
  const events: GatewayEvent[] = [];
  const gateway = createGateway({
    upstreams: [HOSTILE],
    hooks: new ToolHooks(),
    onEvent: (e) => events.push(e),
    ...extra,
  });
  open.push(gateway);
  await gateway.start();
  const [a, b] = InMemoryTransport.createLinkedPair();
  await gateway.connect(a);
  const client = new Client({ name: "restart-test", version: "1" });
  let listChanged = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void listChanged++);
  await client.connect(b);
  const next = (type: GatewayEvent["type"]) =>
    new Promise<GatewayEvent>((resolve) => {
      const seen = events.length;
      const timer = setInterval(() => {
        const found = events.slice(seen).find((e) => e.type === type) ?? events.find((e) => e.type === type);
        if (found !== undefined) {
          clearInterval(timer);
          resolve(found);
        }
      }, 10);
    });
  return { gateway, client, events, next, listChanged: () => listChanged };
}

describe("a stdio upstream that crashes is restarted", () => {
  it("answers the call in flight with an error result naming the upstream, restarts it, and serves again", async () => {
    const { gateway, client, events, next, listChanged } = await serve({
      restart: { initialDelayMs: 1500, jitter: 0 },
    });
    const listener = await gateway.listen({ port: 0 });
    const readyz = async () => {
      const response = await fetch(new URL("/readyz", listener.url));
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect(await readyz()).toEqual({ status: 200, body: { ready: true } });
    const before = textOf(await client.callTool({ name: "pid" }));
    const crashed = await client.callTool({ name: "crash" });
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toMatch(/upstream "h" exited while the call was in flight/);
    // During the backoff a call is answered at once, never held.
    const during = await client.callTool({ name: "echo", arguments: { text: "x" } });
    expect(during.isError).toBe(true);
    expect(textOf(during)).toMatch(/upstream "h" is restarting/);
    expect(await readyz()).toEqual({
      status: 503,
      body: { ready: false, reason: 'upstream "h" is restarting (exited)' },
    });
    const restarted = await next("upstream-restarted");
    expect(await readyz()).toEqual({ status: 200, body: { ready: true } });
    expect(restarted).toMatchObject({ upstream: "h", attempt: 1 });
    expect(events.find((e) => e.type === "upstream-restarting")).toMatchObject({
      upstream: "h",
      reason: "exited",
      attempt: 1,
      delayMs: 1500,
    });
    const after = textOf(await client.callTool({ name: "pid" }));
    expect(after).not.toBe(before);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "back" } }))).toBe("back");
    expect(listChanged()).toBeGreaterThan(0);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("crash");
    await listener.close();
  }, 60_000);

  it("survives a line of garbage on stdout: the call gets an error result, the upstream is restarted", async () => {
    const { client, next } = await serve({ restart: { initialDelayMs: 0 } });
    const result = await client.callTool({ name: "garbage" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/upstream "h" wrote a line on stdout that is not JSON-RPC/);
    await next("upstream-restarted");
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "ok" } }))).toBe("ok");
  }, 60_000);

  it("stays down past maxRestarts in the window, with an error result for each call, and the gateway stays up", async () => {
    const { client, next, events } = await serve({ restart: { maxRestarts: 1, initialDelayMs: 0, windowMs: 60_000 } });
    await client.callTool({ name: "crash" });
    await next("upstream-restarted");
    await client.callTool({ name: "crash" });
    const down = await next("upstream-down");
    expect(down).toMatchObject({ upstream: "h", restarts: 1, reason: "exited" });
    const result = await client.callTool({ name: "echo", arguments: { text: "x" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/upstream "h" is down \(restarted 1 times within 60000 ms\)/);
    expect(events.filter((e) => e.type === "upstream-restarting")).toHaveLength(1);
    expect(await client.ping()).toEqual({});
  }, 60_000);

  it("does not restart with maxRestarts 0: the crash still gives an error result", async () => {
    const { client, events } = await serve({ restart: { maxRestarts: 0 } });
    const crashed = await client.callTool({ name: "crash" });
    expect(crashed.isError).toBe(true);
    expect(textOf(crashed)).toMatch(/upstream "h" exited while the call was in flight/);
    expect(events.some((e) => e.type === "upstream-restarting")).toBe(false);
    expect(events.find((e) => e.type === "upstream-down")).toMatchObject({ upstream: "h", restarts: 0 });
    expect(textOf(await client.callTool({ name: "pid" }))).toMatch(/upstream "h" is down/);
  }, 60_000);
});
