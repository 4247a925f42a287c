import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Agent, type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { guardServer, mcpServerCall, readToolwareMeta, TOOLWARE_META } from "./index.js";
import { filesServer, firstText, link, newClient } from "./test-fixtures.js";

async function setup(hooks: ToolHooks, options?: Parameters<typeof guardServer>[2]) {
  const { server, seen } = filesServer();
  guardServer(server, hooks, options);
  const client = newClient();
  await link(server, client);
  return { server, client, seen };
}

describe("guardServer over the in-memory transport", () => {
  it("a before-hook's input rewrite reaches the handler", async () => {
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      ctx.toolInput.path = "rewritten.md";
    });
    const { client, seen } = await setup(hooks);
    await client.callTool({ name: "read_note", arguments: { path: "a.md" } });
    expect(seen.map((s) => s.args)).toEqual([{ path: "rewritten.md" }]);
  });

  it("a guardrail block reaches the client as isError with the reason; the handler never runs", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: [{ destructive: true }] }));
    const { client, seen } = await setup(hooks);
    const result = await client.callTool({ name: "delete_note", arguments: { path: "a.md" } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain("Reason:");
    expect(firstText(result)).toContain("delete_note");
    expect(seen).toEqual([]);
  });

  it("an after-hook's redaction reaches the client", async () => {
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
      ["a", "b", "c"].map((path) => client.callTool({ name: "read_note", arguments: { path } })),
    );
    expect(results.map((r) => r.isError === true).filter(Boolean)).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });

  it("guards tools registered after guarding, and callbacks replaced with update()", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: ["late_*"] }));
    const { server, client } = await setup(hooks);
    let runs = 0;
    const late = server.registerTool("late_tool", { inputSchema: { x: z.string() } }, async () => {
      runs++;
      return { content: [{ type: "text", text: "ran" }] };
    });
    expect((await client.callTool({ name: "late_tool", arguments: { x: "1" } })).isError).toBe(true);
    late.update({
      callback: async () => {
        runs++;
        return { content: [{ type: "text", text: "ran" }] };
      },
    });
    expect((await client.callTool({ name: "late_tool", arguments: { x: "1" } })).isError).toBe(true);
    late.update({ name: "late_renamed" });
    expect((await client.callTool({ name: "late_renamed", arguments: { x: "1" } })).isError).toBe(true);
    server.registerTool("no_args_late", {}, async () => {
      runs++;
      return { content: [{ type: "text", text: "ran" }] };
    });
    hooks.before((ctx) => ctx.toolName !== "no_args_late");
    expect((await client.callTool({ name: "no_args_late" })).isError).toBe(true);
    expect(runs).toBe(0);
  });

  it("the client's abort reaches the guarded handler's extra.signal", async () => {
    const outcomes: ToolCallOutcome[] = [];
    const { server, client } = await setup(new ToolHooks(), { onOutcome: (o) => outcomes.push(o) });
    let handlerSignal: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    server.registerTool("slow", {}, async (extra) => {
      handlerSignal = extra.signal;
      started();
      await new Promise((resolve) => extra.signal.addEventListener("abort", resolve));
      return { content: [{ type: "text", text: "late" }] };
    });
    const controller = new AbortController();
    const pending = client.callTool({ name: "slow" }, undefined, { signal: controller.signal });
    await running;
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow();
    await expect.poll(() => handlerSignal?.aborted).toBe(true);
    await expect.poll(() => outcomes.length).toBe(1);
  });

  it("a thrown handler and an isError result are errors with the reason", async () => {
    const outcomes: ToolCallOutcome[] = [];
    const { server, client } = await setup(new ToolHooks(), { onOutcome: (o) => outcomes.push(o) });
    server.registerTool("throws", {}, async () => {
      throw new Error("kaboom");
    });
    const thrown = await client.callTool({ name: "throws" });
    expect(thrown.isError).toBe(true);
    expect(firstText(thrown)).toContain("kaboom");
    const reported = await client.callTool({ name: "broken", arguments: { why: "disk full" } });
    expect(reported.isError).toBe(true);
    expect(firstText(reported)).toContain("disk full");
    expect(outcomes.map((o) => o.status)).toEqual(["error", "error"]);
  });

  it("per-user policies: bind reads the client's _meta, and hooks see the MCP request", async () => {
    const intern = new Agent({ role: "intern" });
    const hooks = new ToolHooks();
    intern.before((ctx) => ctx.toolName !== "delete_note");
    const seenRequests: unknown[] = [];
    hooks.before((ctx) => {
      seenRequests.push(mcpServerCall(ctx)?.toolName);
    });
    const { client, seen } = await setup(hooks, {
      bind: ({ meta }) => (readToolwareMeta(meta).agent === "intern" ? { agent: intern } : {}),
    });
    const asIntern = await client.callTool({
      name: "delete_note",
      arguments: { path: "a" },
      _meta: { [TOOLWARE_META.agent]: "intern" },
    });
    expect(asIntern.isError).toBe(true);
    const asOther = await client.callTool({ name: "delete_note", arguments: { path: "a" } });
    expect(asOther.isError).toBeUndefined();
    expect(seen.map((s) => s.tool)).toEqual(["delete_note"]);
    expect(seenRequests).toEqual(["delete_note", "delete_note"]);
  });

  it("a throwing bind fails the call closed", async () => {
    const { client, seen } = await setup(new ToolHooks(), {
      bind: () => {
        throw new Error("who are you");
      },
    });
    const result = await client.callTool({ name: "read_note", arguments: { path: "a" } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain("who are you");
    expect(seen).toEqual([]);
  });

  it("refuses what it cannot guard, with codes", () => {
    const hooks = new ToolHooks();
    const server = new McpServer({ name: "s", version: "1" });
    guardServer(server, hooks);
    expect(() => guardServer(server, hooks)).toThrow(expect.objectContaining({ code: "TOOLWARE_MCP_ALREADY_GUARDED" }));
    expect(() => guardServer({} as never, hooks)).toThrow(TypeError);
    expect(() => guardServer(new McpServer({ name: "s", version: "1" }), hooks, { bnd: () => ({}) } as never)).toThrow(
      expect.objectContaining({ code: "TOOLWARE_UNKNOWN_OPTION" }),
    );
    const odd = new McpServer({ name: "s", version: "1" });
    Reflect.set(odd, "_registeredTools", undefined);
    let error: unknown;
    try {
      guardServer(odd, hooks);
    } catch (e) {
      error = e;
    }
    expect(toolwareCode(error)).toBe("TOOLWARE_MCP_UNSUPPORTED_SDK");
    const tool = server.registerTool("t", {}, async () => ({ content: [] }));
    expect(() => {
      tool.handler = "not a function" as never;
    }).toThrow(expect.objectContaining({ code: "TOOLWARE_MCP_UNGUARDABLE_TOOL" }));
  });
});
