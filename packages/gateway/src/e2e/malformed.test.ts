import { type ChildProcessByStdio, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { PassThrough } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ToolHooks } from "@toolware/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, type Gateway, type GatewayListener } from "../index.js";
import { startFeatureServer } from "./upstream-fixture.js";

const root = fileURLToPath(new URL("../../../..", import.meta.url));
const loader = pathToFileURL(`${root}node_modules/tsx/dist/loader.mjs`).href;
const script = fileURLToPath(new URL("./stdio-gateway.ts", import.meta.url));
const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

describe("a client sending garbage over stdio gets JSON-RPC errors, and the gateway goes on", () => {
  let child: ChildProcessByStdio<Writable, Readable, null>;
  const lines: Record<string, unknown>[] = [];
  let waiting: (() => void) | undefined;
  const reply = async (line: string): Promise<Record<string, unknown>> => {
    const seen = lines.length;
    child.stdin.write(`${line}\n`);
    while (lines.length === seen) await new Promise<void>((resolve) => (waiting = resolve));
    return lines[seen] as Record<string, unknown>;
  };

  beforeAll(async () => {
    child = spawn(process.execPath, ["--import", loader, "--conditions", "@toolware/source", script], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    createInterface({ input: child.stdout }).on("line", (line) => {
      lines.push(JSON.parse(line) as Record<string, unknown>);
      waiting?.();
    });
    expect(await reply(JSON.stringify(INIT))).toMatchObject({
      id: 1,
      result: { serverInfo: { name: "toolware-gateway" } },
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  }, 60_000);
  afterAll(() => {
    child.stdin.end();
    child.kill();
  });

  it("answers each kind of garbage with its error", async () => {
    expect(await reply("this is not json")).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: expect.stringMatching(/Parse error/) },
    });
    expect(await reply('{"hello":"world"}')).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await reply(JSON.stringify([INIT, { ...INIT, id: 2 }]))).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringMatching(/batches/) },
    });
    expect(await reply('{"jsonrpc":"2.0","id":7,"method":"no/such/method"}')).toMatchObject({
      id: 7,
      error: { code: -32601 },
    });
    expect(await reply('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":42}}')).toMatchObject({
      id: 8,
      error: { code: -32602 },
    });
    expect(
      await reply(
        '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"text":"still here"}}}',
      ),
    ).toMatchObject({
      id: 9,
      result: { content: [{ type: "text", text: "still here" }] },
    });
  }, 60_000);

  it("survives the upstream writing garbage: the call gets an error result, the next call works", async () => {
    const bad = await reply('{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"garbage"}}');
    expect(bad).toMatchObject({ id: 10, result: { isError: true } });
    expect(JSON.stringify(bad)).toMatch(/upstream \\"h\\" wrote a line on stdout that is not JSON-RPC/);
    for (let i = 11; i < 200; i++) {
      const ok = await reply(
        `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"echo","arguments":{"text":"back"}}}`,
      );
      if ((ok.result as { isError?: boolean } | undefined)?.isError !== true) {
        expect(ok).toMatchObject({ id: i, result: { content: [{ type: "text", text: "back" }] } });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the upstream never came back");
  }, 60_000);
});

// A raw POST to the listener, answering the status and the JSON-RPC error (or SSE data) it sent.
async function post(listener: GatewayListener, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(listener.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body,
  });
  const text = await response.text();
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
  return {
    status: response.status,
    json: JSON.parse(data) as Record<string, unknown>,
    session: response.headers.get("mcp-session-id"),
  };
}

describe("a client sending garbage over Streamable HTTP gets JSON-RPC errors; /readyz", () => {
  let upstream: Awaited<ReturnType<typeof startFeatureServer>>;
  let gateway: Gateway;
  let listener: GatewayListener;

  beforeAll(async () => {
    upstream = await startFeatureServer();
    gateway = createGateway({ upstreams: [{ name: "f", url: upstream.url }], hooks: new ToolHooks() });
    await gateway.start();
    listener = await gateway.listen({ port: 0 });
  }, 30_000);
  afterAll(async () => {
    await listener.close();
    await gateway.close();
    await upstream.close();
  });

  it("refuses what is not one JSON-RPC message, and answers unknown methods and bad params in a session", async () => {
    expect(await post(listener, "not json")).toMatchObject({ status: 400, json: { error: { code: -32700 } } });
    expect(await post(listener, '{"id":3}')).toMatchObject({ status: 400, json: { id: 3, error: { code: -32600 } } });
    expect(await post(listener, "[]")).toMatchObject({ status: 400, json: { error: { code: -32600 } } });
    expect(await post(listener, JSON.stringify([INIT]))).toMatchObject({
      status: 400,
      json: { error: { message: expect.stringMatching(/batches/) } },
    });
    expect(await post(listener, '{"jsonrpc":"2.0","id":4,"method":"tools/list"}')).toMatchObject({ status: 400 });
    const init = await post(listener, JSON.stringify(INIT));
    expect(init.status).toBe(200);
    const headers = { "mcp-session-id": init.session as string, "mcp-protocol-version": "2025-06-18" };
    await post(listener, '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers).catch(() => undefined);
    expect(await post(listener, '{"jsonrpc":"2.0","id":5,"method":"no/such"}', headers)).toMatchObject({
      json: { id: 5, error: { code: -32601 } },
    });
    expect(
      await post(listener, '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":[]}}', headers),
    ).toMatchObject({ json: { id: 6, error: { code: -32602 } } });
  });

  it("answers a GET without a session, an unknown path, a second listener on the port, and ends a session on DELETE", async () => {
    expect((await fetch(listener.url)).status).toBe(400);
    const lost = await fetch(new URL("/elsewhere", listener.url));
    expect(lost.status).toBe(404);
    expect(await lost.json()).toMatchObject({ error: { message: "Not found: the MCP endpoint is /mcp" } });
    await expect(gateway.listen({ port: listener.port })).rejects.toThrow(/EADDRINUSE/);
    const init = await post(listener, JSON.stringify(INIT));
    const headers = { "mcp-session-id": init.session as string, "mcp-protocol-version": "2025-06-18" };
    expect((await fetch(listener.url, { method: "DELETE", headers })).status).toBe(200);
    expect(await post(listener, '{"jsonrpc":"2.0","id":2,"method":"ping"}', headers)).toMatchObject({ status: 404 });
  });

  it("answers garbage on a stdio transport in this process too, and the session goes on", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const session = await gateway.connect(new StdioServerTransport(input, output));
    const lines = createInterface({ input: output })[Symbol.asyncIterator]();
    const send = async (line: string) => {
      input.write(`${line}\n`);
      return JSON.parse((await lines.next()).value as string) as Record<string, unknown>;
    };
    expect(await send("{oops")).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await send("[1,2]")).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await send(JSON.stringify(INIT))).toMatchObject({ id: 1, result: { protocolVersion: "2025-06-18" } });
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    expect(await send('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":{}}}')).toMatchObject({
      id: 2,
      error: {
        code: -32602,
        message:
          "MCP error -32602: Invalid params for tools/call: params.name: Invalid input: expected string, received object",
      },
    });
    expect(
      await send('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"t"}}}'),
    ).toMatchObject({
      id: 3,
      result: { structuredContent: { text: "t" } },
    });
    await session.close();
  });

  it("/readyz is 200 while the upstream answers, 503 with the reason when it does not; /healthz stays 200", async () => {
    const ready = await fetch(new URL("/readyz", listener.url));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true });
    await upstream.close();
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const down = await fetch(new URL("/readyz", listener.url));
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      ready: false,
      reason: expect.stringMatching(/^upstream "f" is not reachable/),
    });
    expect((await fetch(new URL("/healthz", listener.url))).status).toBe(200);
    await gateway.close();
    const closing = await fetch(new URL("/readyz", listener.url));
    expect(await closing.json()).toEqual({ ready: false, reason: "the gateway is closing" });
  }, 30_000);
});
