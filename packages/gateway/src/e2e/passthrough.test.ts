import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { ToolHooks } from "@toolware/core";
import { loadPolicy } from "@toolware/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, type Gateway, type GatewayListener, gatewayCall, gatewayElicitation } from "../index.js";
import { textOf } from "../test-fixtures.js";
import { startFeatureServer } from "./upstream-fixture.js";

// Two HTTP upstreams (the same SDK server), the second untrusted: its readOnlyHint cannot earn an allow.
const POLICY = {
  version: 1,
  name: "passthrough",
  default: "deny",
  rules: [
    { name: "read-only-ok", match: { annotations: { readOnlyHint: true } }, decide: "allow" },
    { name: "helpers-ok", match: { tools: ["ask", "slow"] }, decide: "allow" },
    { name: "approve-wipe", match: { tools: ["wipe"] }, decide: "approve" },
  ],
};

describe("the gateway passes everything but tools/call through, both ways, over Streamable HTTP", () => {
  let upstream: Awaited<ReturnType<typeof startFeatureServer>>;
  let gateway: Gateway;
  let listener: GatewayListener;
  const seen: (string | undefined)[] = [];
  const logs: unknown[] = [];
  const client = new Client(
    { name: "pt-client", version: "2.0.0" },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  );

  beforeAll(async () => {
    upstream = await startFeatureServer();
    const policy = await loadPolicy(POLICY as never);
    const hooks = new ToolHooks({ humanInput: gatewayElicitation() });
    hooks.use(policy);
    hooks.before((ctx) => {
      seen.push(gatewayCall(ctx)?.client?.name);
    });
    gateway = createGateway({
      upstreams: [
        { name: "a", url: upstream.url },
        { name: "b", url: upstream.url, trusted: false },
      ],
      hooks,
      policy,
    });
    await gateway.start();
    listener = await gateway.listen({ port: 0, bearerToken: "a-long-enough-bearer-token" });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "sampled!" },
      model: "test",
    }));
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const props = "requestedSchema" in request.params ? request.params.requestedSchema.properties : {};
      return "answer" in props
        ? { action: "accept", content: { answer: "yes" } }
        : { action: "accept", content: { name: "Ada" } };
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => void logs.push(n.params.data));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(listener.url), {
        requestInit: { headers: { authorization: "Bearer a-long-enough-bearer-token" } },
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await client.close();
    await gateway.close();
    await listener.close();
    await upstream.close();
  });

  it("prefixes each upstream's tools and hides what the policy denies outright (untrusted hints do not count)", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(["a__ask", "a__echo", "a__slow", "a__wipe", "b__ask", "b__slow", "b__wipe"]);
    const hidden = await client.callTool({ name: "b__echo", arguments: { text: "x" } });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toContain("not found");
  });

  it("forwards a call, its structuredContent and the server's log message; hooks see the client", async () => {
    await client.setLoggingLevel("debug");
    const result = await client.callTool({ name: "a__echo", arguments: { text: "hi" } });
    expect(result.structuredContent).toEqual({ text: "hi" });
    await expect.poll(() => logs).toContain("echo hi");
    expect(seen.at(-1)).toBe("pt-client");
  });

  it("forwards progress, and the server's sampling, elicitation and roots requests to the client", async () => {
    const progress: number[] = [];
    const slow = await client.callTool({ name: "a__slow", arguments: {} }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    });
    expect(textOf(slow)).toBe("done");
    expect(progress).toEqual([1, 2, 3]);
    const asked = JSON.parse(textOf(await client.callTool({ name: "b__ask", arguments: {} })));
    expect(asked).toEqual({
      sampled: { type: "text", text: "sampled!" },
      elicited: { name: "Ada" },
      roots: [{ uri: "file:///work", name: "work" }],
    });
  });

  it("cancels the upstream call when the client cancels", async () => {
    const aborter = new AbortController();
    const pending = client.callTool({ name: "a__slow", arguments: {} }, undefined, { signal: aborter.signal });
    setTimeout(() => aborter.abort(), 20);
    await expect(pending).rejects.toThrow();
  });

  it("asks for an approval through the client's elicitation", async () => {
    const wiped = await client.callTool({ name: "a__wipe", arguments: {} });
    expect(wiped.isError, textOf(wiped)).not.toBe(true);
    expect(textOf(wiped)).toBe("wiped");
  });

  it("denies an approval when the client cannot be asked (no elicitation) or declines", async () => {
    const plain = new Client({ name: "plain", version: "1.0.0" });
    await plain.connect(
      new StreamableHTTPClientTransport(new URL(listener.url), {
        requestInit: { headers: { authorization: "Bearer a-long-enough-bearer-token" } },
      }),
    );
    const refused = await plain.callTool({ name: "a__wipe", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/elicitation/);
    await plain.close();
    const declining = new Client({ name: "no", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    declining.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
    await declining.connect(
      new StreamableHTTPClientTransport(new URL(listener.url), {
        requestInit: { headers: { authorization: "Bearer a-long-enough-bearer-token" } },
      }),
    );
    const declined = await declining.callTool({ name: "a__wipe", arguments: {} });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).not.toBe("wiped");
    await declining.close();
  });

  it("passes resources, templates, prompts and completion through", async () => {
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain("memo://one");
    expect((await client.readResource({ uri: "memo://one" })).contents[0]).toMatchObject({ text: "memo one" });
    expect((await client.readResource({ uri: "memo://items/7" })).contents[0]).toMatchObject({ text: "memo 7" });
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toContain("memo://items/{id}");
    expect((await client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(["a__greet", "b__greet"]);
    const prompt = await client.getPrompt({ name: "b__greet", arguments: { who: "team" } });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "hello team" });
    const done = await client.complete({
      ref: { type: "ref/prompt", name: "a__greet" },
      argument: { name: "who", value: "wo" },
    });
    expect(done.completion.values).toEqual(["world"]);
    await expect(client.getPrompt({ name: "greet" })).rejects.toThrow(/not found/);
    expect(await client.ping()).toEqual({});
  });

  it("answers an unknown method with an error and keeps serving", async () => {
    const { z } = await import("zod");
    await expect(client.request({ method: "tools/destroy", params: {} } as never, z.object({}))).rejects.toThrow(
      /Method not found/,
    );
    expect((await client.callTool({ name: "a__echo", arguments: { text: "still" } })).structuredContent).toEqual({
      text: "still",
    });
  });
});
