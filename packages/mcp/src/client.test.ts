import { Agent, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { guardClient, TOOLWARE_META } from "./index.js";
import { filesServer, firstText, link, newClient } from "./test-fixtures.js";

async function setup(hooks: ToolHooks, options?: Parameters<typeof guardClient>[2]) {
  const { server, seen } = filesServer();
  const client = guardClient(newClient(), hooks, options);
  await link(server, client);
  return { server, client, seen };
}

describe("guardClient over the in-memory transport", () => {
  it("a before-hook's input rewrite reaches the server's tool", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      ctx.toolInput.path = `safe/${String(ctx.toolInput.path)}`;
    });
    const { client, seen } = await setup(hooks);
    const result = await client.callTool({ name: "read_note", arguments: { path: "a.md" } });
    expect(seen.map((s) => s.args)).toEqual([{ path: "safe/a.md" }]);
    expect(firstText(result)).toContain("note safe/a.md");
    expect(result.isError).toBeUndefined();
  });

  it("blocks a tool the server annotates destructiveHint, as isError with the reason; reads pass", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: [{ destructive: true }] }));
    const { client, seen } = await setup(hooks);
    const blocked = await client.callTool({ name: "delete_note", arguments: { path: "a.md" } });
    expect(blocked.isError).toBe(true);
    expect(firstText(blocked)).toMatch(/blocked/i);
    expect(firstText(blocked)).toContain("delete_note");
    const read = await client.callTool({ name: "read_note", arguments: { path: "a.md" } });
    expect(read.isError).toBeUndefined();
    expect(seen.map((s) => s.tool)).toEqual(["read_note"]);
  });

  it("an after-hook's redaction reaches the caller, and no structured copy carries the secret", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const { client } = await setup(hooks);
    const result = await client.callTool({ name: "read_note", arguments: { path: "a.md" } });
    expect(JSON.stringify(result)).not.toContain("sk-live-1234567890abcdef");
    expect(firstText(result)).toContain("[REDACTED]");
  });

  it("three parallel calls each run their own chain: a rate limit of 2 lets exactly 2 through", async () => {
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 2, per: "1m" }));
    const { client, seen } = await setup(hooks);
    const results = await Promise.all(
      ["a", "b", "c"].map((p) => client.callTool({ name: "read_note", arguments: { path: p } })),
    );
    expect(results.filter((r) => r.isError === true)).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });

  it("an abort of the caller's signal reaches the server handler's extra.signal", async () => {
    const { server } = filesServer();
    let handlerSignal: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    server.registerTool("slow", { inputSchema: { n: z.number() } }, async (_args, extra) => {
      handlerSignal = extra.signal;
      started();
      await new Promise((resolve) => extra.signal.addEventListener("abort", resolve));
      return { content: [{ type: "text", text: "late" }] };
    });
    const outcomes: ToolCallOutcome[] = [];
    const client = guardClient(newClient(), new ToolHooks(), { onOutcome: (o) => outcomes.push(o) });
    await link(server, client);
    const controller = new AbortController();
    const pending = client.callTool({ name: "slow", arguments: { n: 1 } }, undefined, { signal: controller.signal });
    await running;
    controller.abort(new Error("user pressed stop"));
    const result = await pending;
    expect(result.isError).toBe(true);
    await expect.poll(() => handlerSignal?.aborted).toBe(true);
    expect(outcomes.map((o) => o.status)).toEqual(["error"]);
  });

  it("the server's own error is a toolware error, reported as isError", async () => {
    const outcomes: ToolCallOutcome[] = [];
    const { client } = await setup(new ToolHooks(), { onOutcome: (o) => outcomes.push(o) });
    const result = await client.callTool({ name: "broken", arguments: { why: "disk full" } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain("disk full");
    expect(outcomes[0]?.status).toBe("error");
  });

  it("sends the bindings and the call id in _meta, keeping the caller's own keys", async () => {
    const researcher = new Agent({ role: "researcher" });
    const { client, seen } = await setup(new ToolHooks(), { bind: () => ({ agent: researcher }) });
    await client.callTool({
      name: "read_note",
      arguments: { path: "a" },
      _meta: { mine: 1, [TOOLWARE_META.callId]: "call_7" },
    });
    expect(seen[0]?.meta).toMatchObject({
      mine: 1,
      [TOOLWARE_META.agent]: "researcher",
      [TOOLWARE_META.callId]: "call_7",
    });
  });

  it("a throwing or ill-typed bind fails the call closed: the tool never runs", async () => {
    const outcomes: ToolCallOutcome[] = [];
    const binds = [
      () => {
        throw new Error("no session");
      },
      () => ({ agent: "researcher" }) as never,
      () => ({ agnet: new Agent({ role: "x" }) }) as never,
      () => Promise.resolve({}) as never,
    ];
    for (const bind of binds) {
      const { client, seen } = await setup(new ToolHooks(), { bind, onOutcome: (o) => outcomes.push(o) });
      const result = await client.callTool({ name: "delete_note", arguments: { path: "a" } });
      expect(result.isError).toBe(true);
      expect(firstText(result)).toMatch(/bind/);
      expect(seen).toEqual([]);
    }
    expect(outcomes.map((o) => o.status)).toEqual(["error", "error", "error", "error"]);
  });

  it("an onOutcome that throws goes to onListenerError and changes nothing", async () => {
    const reported: [string, unknown][] = [];
    const hooks = new ToolHooks({ onListenerError: (where, error) => reported.push([where, error]) });
    const { client, seen } = await setup(hooks, {
      onOutcome: () => {
        throw new Error("audit down");
      },
    });
    const result = await client.callTool({ name: "read_note", arguments: { path: "a" } });
    expect(result.isError).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(reported.map(([where]) => where)).toEqual(["mcp.onOutcome"]);
  });
});
