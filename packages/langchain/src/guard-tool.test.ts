import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { ToolHooks, toolwareCode } from "@toolware/core";
import { guardTool, langchainToolCall, toolwareMiddleware } from "@toolware/langchain";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { modelCalling, toolMessagesSeen } from "./test-fixtures.js";

function makeTool() {
  const seen: string[] = [];
  const deleteFile = tool(
    async ({ path }: { path: string }) => {
      seen.push(path);
      return `deleted ${path}`;
    },
    { name: "delete_file", description: "Deletes a file", schema: z.object({ path: z.string() }) },
  );
  return { seen, deleteFile };
}

function guardedHooks() {
  const hooks = new ToolHooks();
  const calls: Array<[string, string | undefined]> = [];
  hooks.before((ctx) => {
    calls.push([ctx.callId, langchainToolCall(ctx)?.toolName]);
    if (ctx.tool.destructive && String(ctx.toolInput.path).startsWith("/etc")) ctx.block("not under /etc");
    ctx.toolInput.path = String(ctx.toolInput.path).trim();
  });
  return { hooks, calls };
}

describe("guardTool: the paths outside createAgent's middleware", () => {
  it("a LangGraph ToolNode runs the chain: a block is an error ToolMessage for the call's id", async () => {
    const { seen, deleteFile } = makeTool();
    const { hooks, calls } = guardedHooks();
    const node = new ToolNode([guardTool(deleteFile, hooks, { destructive: true })]);
    const ai = new AIMessage({
      content: "",
      tool_calls: [
        { name: "delete_file", args: { path: "/etc/passwd" }, id: "tn_1", type: "tool_call" },
        { name: "delete_file", args: { path: " /tmp/a " }, id: "tn_2", type: "tool_call" },
      ],
    });
    const { messages } = (await node.invoke({ messages: [ai] })) as { messages: ToolMessage[] };
    const byId = Object.fromEntries(messages.map((m) => [m.tool_call_id, [m.status, m.content]]));
    expect(byId.tn_1?.[0]).toBe("error");
    expect(String(byId.tn_1?.[1])).toContain("not under /etc");
    expect(byId.tn_2).toEqual(["success", "deleted /tmp/a"]);
    expect(seen).toEqual(["/tmp/a"]);
    expect(calls.map(([id]) => id).sort()).toEqual(["tn_1", "tn_2"]);
  });

  it("a direct invoke with plain arguments runs the chain; a block rejects with a code", async () => {
    const { seen, deleteFile } = makeTool();
    const { hooks } = guardedHooks();
    const guarded = guardTool(deleteFile, hooks, { destructive: true });
    expect(guarded).toBe(deleteFile);
    expect(await guarded.invoke({ path: " /tmp/b " })).toBe("deleted /tmp/b");
    const error = await guarded.invoke({ path: "/etc/hosts" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(toolwareCode(error)).toBe("TOOLWARE_LANGCHAIN_CALL_BLOCKED");
    expect(String(error)).toContain("not under /etc");
    expect(seen).toEqual(["/tmp/b"]);
  });

  it("a direct invoke with a tool call resolves to a ToolMessage", async () => {
    const { deleteFile } = makeTool();
    const { hooks } = guardedHooks();
    guardTool(deleteFile, hooks, { destructive: true });
    const message = await deleteFile.invoke({
      name: "delete_file",
      args: { path: "/etc/x" },
      id: "direct_1",
      type: "tool_call",
    });
    expect(ToolMessage.isInstance(message)).toBe(true);
    expect(message.status).toBe("error");
    expect(message.tool_call_id).toBe("direct_1");
  });

  it("a tool error rejects with TOOLWARE_LANGCHAIN_CALL_FAILED and the error as cause", async () => {
    const boom = tool(
      async () => {
        throw new Error("disk on fire");
      },
      { name: "boom", schema: z.object({}) },
    );
    guardTool(boom, new ToolHooks());
    const error = await boom.invoke({}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(toolwareCode(error)).toBe("TOOLWARE_LANGCHAIN_CALL_FAILED");
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it("inside an agent with the middleware on the same hooks, the chain runs once per call", async () => {
    const { seen, deleteFile } = makeTool();
    const { hooks, calls } = guardedHooks();
    guardTool(deleteFile, hooks);
    const model = modelCalling([{ name: "delete_file", args: { path: "/tmp/c" }, id: "once_1" }]);
    const agent = createAgent({ model, tools: [deleteFile], middleware: [toolwareMiddleware(hooks)] });
    await agent.invoke({ messages: [{ role: "user", content: "clean up" }] });
    expect(seen).toEqual(["/tmp/c"]);
    expect(calls).toEqual([["once_1", undefined]]);
    expect(toolMessagesSeen(model)[0]?.content).toBe("deleted /tmp/c");
  });

  it("refuses what it cannot guard, and a second guard", () => {
    const { deleteFile } = makeTool();
    const hooks = new ToolHooks();
    expect(() => guardTool({} as never, hooks)).toThrow(TypeError);
    expect(() => guardTool(deleteFile, {} as never)).toThrow(/ToolHooks/);
    expect(() => guardTool(deleteFile, hooks, { destrutive: true } as never)).toThrow(/unknown option `destrutive`/);
    expect(() => guardTool(deleteFile, hooks, { destructive: "yes" } as never)).toThrow(/boolean/);
    guardTool(deleteFile, hooks);
    let code: string | undefined;
    try {
      guardTool(deleteFile, hooks);
    } catch (e) {
      code = toolwareCode(e);
    }
    expect(code).toBe("TOOLWARE_LANGCHAIN_ALREADY_GUARDED");
  });
});
