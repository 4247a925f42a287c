import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { ToolHooks } from "@toolware/core";
import { loadPolicy } from "@toolware/policy";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createGateway, type Gateway, type GatewayListener } from "../index.js";
import { textOf } from "../test-fixtures.js";
import { hostileUpstream } from "./test-fixtures.js";

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const TEN_MB = 10 * 1024 * 1024;

/** Posts raw JSON-RPC; the answer's JSON-RPC messages, from a JSON body or an event stream. */
async function post(url: string, body: unknown, session?: string) {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      ...HEADERS,
      ...(session === undefined ? {} : { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" }),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  const messages = text
    .split("\n")
    .filter((l) => l.startsWith("data:") || l.startsWith("{"))
    .map((l) => JSON.parse(l.replace(/^data:\s*/, "")) as { id?: unknown; result?: unknown; error?: { code: number } });
  return { status: res.status, session: res.headers.get("mcp-session-id") ?? undefined, messages };
}

async function rawSession(url: string): Promise<string> {
  const init = await post(url, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  expect(init.status).toBe(200);
  const session = init.session as string;
  expect((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
  return session;
}

// Every raw call claims the same toolware call id: the client's word, which must not tie two sessions together.
const callBody = (id: number | string, name: string, args: Record<string, unknown>, extra = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, _meta: { "toolware/callId": "same-call" }, ...extra },
});

async function sdkClient(url: string): Promise<Client> {
  const client = new Client({ name: "sdk", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe("hostile clients over Streamable HTTP", () => {
  const upstream = hostileUpstream();
  let gateway: Gateway;
  let strict: GatewayListener;
  let roomy: GatewayListener;

  beforeAll(async () => {
    const policy = await loadPolicy({
      version: 1,
      name: "http",
      default: "allow",
      rules: [{ name: "no-deletes", match: { tools: ["delete_file"] }, decide: "deny", reason: "no deletes" }],
    });
    const hooks = new ToolHooks();
    hooks.use(policy);
    gateway = createGateway({ upstreams: [upstream.config], hooks, policy, hideDenied: false });
    await gateway.start();
    strict = await gateway.listen({ port: 0 });
    roomy = await gateway.listen({ port: 0, maxBodyBytes: 32 * 1024 * 1024 });
  }, 30_000);
  afterAll(async () => {
    await gateway.close();
    await Promise.allSettled([strict.close(), roomy.close()]);
  });

  it("gives two sessions using the same JSON-RPC ids at once each its own answers", async () => {
    const [a, b] = await Promise.all([rawSession(strict.url), rawSession(strict.url)]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 })), { minLength: 1, maxLength: 8 }),
        async (pairs) => {
          const answers = await Promise.all(
            pairs.flatMap(([x, y], i) => [
              post(strict.url, callBody(i + 1, "echo", { text: `a:${x}` }), a),
              post(strict.url, callBody(i + 1, "echo", { text: `b:${y}` }), b),
            ]),
          );
          const texts = answers.map((r) => textOf(r.messages.find((m) => m.id !== undefined)?.result));
          expect(texts).toEqual(pairs.flatMap(([x, y]) => [`a:${x}`, `b:${y}`]));
        },
      ),
      { numRuns: 8 },
    );
    // SDK clients number their requests alike (0, 1, 2, …): the same ids, concurrently, in two sessions
    const [one, two] = await Promise.all([sdkClient(strict.url), sdkClient(strict.url)]);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? one : two).callTool({ name: "echo", arguments: { text: `${i}` } }),
      ),
    );
    expect(results.map(textOf)).toEqual(Array.from({ length: 20 }, (_, i) => `${i}`));
    await Promise.all([one.close(), two.close()]);
  }, 30_000);

  it("answers unknown methods with MethodNotFound, over HTTP and through the SDK, and keeps serving", async () => {
    const session = await rawSession(strict.url);
    const methods = [
      "tools/destroy",
      "prompts/list",
      "resources/read",
      "__proto__",
      "constructor",
      "toString",
      "Tools/Call",
    ];
    for (const method of methods) {
      const { messages } = await post(strict.url, { jsonrpc: "2.0", id: 9, method, params: {} }, session);
      expect(messages[0]?.error?.code, method).toBe(ErrorCode.MethodNotFound);
    }
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ minLength: 1, maxLength: 30 })
          .filter((m) => !["ping", "tools/list", "tools/call", "initialize", "logging/setLevel"].includes(m)),
        async (method) => {
          const { messages } = await post(strict.url, { jsonrpc: "2.0", id: "x", method, params: {} }, session);
          expect(messages[0]?.error?.code).toBe(ErrorCode.MethodNotFound);
        },
      ),
      { numRuns: 40 },
    );
    // an unknown notification is accepted and ignored
    expect((await post(strict.url, { jsonrpc: "2.0", method: "notifications/whatever" }, session)).status).toBe(202);
    const client = await sdkClient(strict.url);
    await expect(client.request({ method: "tools/destroy", params: {} } as never, z.object({}))).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
    });
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "ok" } }))).toBe("ok");
    await client.close();
  }, 30_000);

  it("refuses a task-augmented call (its answer would come outside the policy); the tool never runs", async () => {
    const session = await rawSession(strict.url);
    const before = upstream.ran().length;
    for (const name of ["delete_file", "echo"]) {
      const { messages } = await post(strict.url, callBody(3, name, { text: "t" }, { task: { ttl: 60_000 } }), session);
      const answer = messages[0] as { error?: unknown; result?: { isError?: boolean } } | undefined;
      expect(answer?.error !== undefined || answer?.result?.isError === true, JSON.stringify(answer)).toBe(true);
    }
    expect(upstream.ran()).toHaveLength(before);
  });

  it("answers any JSON that is not JSON-RPC with an error, never a crash", async () => {
    const session = await rawSession(strict.url);
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        const { status } = await post(strict.url, value, session);
        expect(status).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
    const { messages } = await post(strict.url, callBody(1, "echo", { text: "alive" }), session);
    expect(textOf(messages[0]?.result)).toBe("alive");
  }, 30_000);

  it("refuses 10 MB of arguments with 413 by default; the session goes on", async () => {
    const session = await rawSession(strict.url);
    const big = await post(strict.url, callBody(1, "measure", { data: "x".repeat(TEN_MB) }), session);
    expect(big.status).toBe(413);
    const client = await sdkClient(strict.url);
    await expect(client.callTool({ name: "measure", arguments: { data: "x".repeat(TEN_MB) } })).rejects.toMatchObject({
      code: 413,
    });
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "after" } }))).toBe("after");
    await client.close();
    expect(upstream.ran()).not.toContain("measure");
  }, 30_000);

  it("passes 10 MB of arguments under a larger limit to the policy, which decides", async () => {
    const client = await sdkClient(roomy.url);
    const data = "y".repeat(TEN_MB);
    const measured = await client.callTool({ name: "measure", arguments: { data } });
    expect(Number(textOf(measured))).toBe(JSON.stringify({ data }).length);
    const denied = await client.callTool({ name: "delete_file", arguments: { data } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/no deletes/);
    expect(textOf(denied).length).toBeLessThan(2000);
    expect(upstream.ran()).not.toContain("delete_file");
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "after" } }))).toBe("after");
    await client.close();
  }, 30_000);
});
