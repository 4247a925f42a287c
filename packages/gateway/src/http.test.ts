import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolHooks } from "@toolware/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFeatureServer } from "./e2e/upstream-fixture.js";
import { createGateway, type Gateway, type GatewayListener } from "./index.js";
import { textOf } from "./test-fixtures.js";

const TOKEN = "a-long-enough-bearer-token";

// A raw request, so the Host header can be anything (fetch would set it from the URL).
function post(port: number, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

describe("listen(): Streamable HTTP on loopback", () => {
  let upstream: Awaited<ReturnType<typeof startFeatureServer>>;
  let gateway: Gateway;
  let listener: GatewayListener;

  beforeAll(async () => {
    upstream = await startFeatureServer();
    gateway = createGateway({ upstreams: [{ name: "f", url: upstream.url }], hooks: new ToolHooks() });
    await gateway.start();
    listener = await gateway.listen({ port: 0, bearerToken: TOKEN, maxBodyBytes: 1024 * 1024 });
  }, 30_000);
  afterAll(async () => {
    await gateway.close();
    await listener.close();
    await upstream.close();
  });

  it("listens on 127.0.0.1 and refuses a foreign Host or Origin (DNS rebinding) and a missing token", async () => {
    expect(listener.url).toBe(`http://127.0.0.1:${listener.port}/mcp`);
    const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const auth = { ...json, authorization: `Bearer ${TOKEN}` };
    expect(await post(listener.port, { ...auth, host: "evil.example:80" }, INIT)).toBe(403);
    expect(await post(listener.port, { ...auth, origin: "http://evil.example" }, INIT)).toBe(403);
    expect(await post(listener.port, json, INIT)).toBe(401);
    expect(await post(listener.port, { ...json, authorization: `Bearer ${TOKEN}x` }, INIT)).toBe(401);
    expect(await post(listener.port, auth, "{not json")).toBe(400);
    expect(await post(listener.port, { ...auth, "mcp-session-id": "nobody" }, INIT)).toBe(404);
    expect(await post(listener.port, auth, INIT)).toBe(200);
  });

  it("refuses a body over the limit and keeps serving; each session gets its own results", async () => {
    const connect = async (name: string) => {
      const c = new Client({ name, version: "1" });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(listener.url), {
          requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
        }),
      );
      return c;
    };
    const [one, two] = await Promise.all([connect("one"), connect("two")]);
    await expect(one.callTool({ name: "echo", arguments: { text: "x".repeat(2 * 1024 * 1024) } })).rejects.toThrow();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? one : two).callTool({ name: "echo", arguments: { text: `${i}` } }),
      ),
    );
    expect(results.map(textOf)).toEqual(Array.from({ length: 10 }, (_, i) => `${i}`));
    await one.close();
    await two.close();
  });

  it("answers 10 MB of arguments over an in-process transport with an error result, and stays up", async () => {
    const [a, b] = InMemoryTransport.createLinkedPair();
    await gateway.connect(a);
    const c = new Client({ name: "big", version: "1" });
    await c.connect(b);
    const big = await c.callTool({ name: "echo", arguments: { text: "y".repeat(10 * 1024 * 1024) } });
    // The upstream's own HTTP transport refuses a body that large: the client gets an error result, not a hang.
    expect(big.isError).toBe(true);
    expect(textOf(big).length).toBeLessThan(2000);
    const odd = await c.callTool({ name: "echo", arguments: { text: 42 } as never });
    expect(odd.isError).toBe(true);
    expect((await c.callTool({ name: "echo", arguments: { text: "ok" } })).structuredContent).toEqual({ text: "ok" });
    await c.close();
  }, 30_000);
});

describe("createGateway(): options", () => {
  it("refuses typos with a hint, a missing hooks, and bad upstreams", () => {
    const hooks = new ToolHooks();
    const up = { name: "x", command: "node" };
    expect(() => createGateway({ upstreams: [up], hooks, hideDenid: false } as never)).toThrow(
      /did you mean "hideDenied"/,
    );
    expect(() => createGateway({ upstreams: [up] } as never)).toThrow(/ToolHooks/);
    expect(() => createGateway({ upstreams: [], hooks })).toThrow(/non-empty/);
    expect(() => createGateway({ upstreams: [{ name: "x", command: "n", url: "http://h" }], hooks } as never)).toThrow(
      /exactly one/,
    );
    expect(() => createGateway({ upstreams: [{ name: "x", url: "file:///etc" }], hooks })).toThrow(/http/);
    expect(() => createGateway({ upstreams: [{ ...up, trusted: "no" }], hooks } as never)).toThrow(/trusted/);
    expect(() => createGateway({ upstreams: [up, up], hooks })).toThrow(/two upstreams/);
    expect(() => createGateway({ upstreams: [{ ...up, argz: [] }], hooks } as never)).toThrow(/did you mean "args"/);
  });

  it("refuses to serve before start(), and listen() options are strict", async () => {
    const gw = createGateway({ upstreams: [{ name: "x", command: "node" }], hooks: new ToolHooks() });
    await expect(gw.listen({ port: 0 })).rejects.toThrow(/start\(\)/);
    await expect(gw.listen({ prot: 1 } as never)).rejects.toThrow(/did you mean "port"/);
    await expect(gw.listen({ bearerToken: "short" })).rejects.toThrow(/16/);
  });
});
