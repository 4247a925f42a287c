import { tool } from "@langchain/core/tools";
import { ToolHooks, toolwareCode } from "@toolware/core";
import { toolwareMiddleware } from "@toolware/langchain";
import { createAgent, createMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { modelCalling, toolMessagesSeen } from "./test-fixtures.js";

const ran: string[] = [];
const lookup = tool(
  async ({ id }: { id: string }) => {
    ran.push(id);
    return `record ${id}`;
  },
  { name: "lookup", schema: z.object({ id: z.string() }) },
);
const dynamic = tool(
  async ({ q }: { q: string }) => {
    ran.push(q);
    return `found ${q}`;
  },
  { name: "dyn_search", schema: z.object({ q: z.string() }) },
);
// A middleware that serves a tool the agent was not created with (LangChain's dynamic registration).
const provider = createMiddleware({
  name: "provider",
  wrapToolCall: (request, handler) =>
    request.tool === undefined && request.toolCall.name === "dyn_search"
      ? handler({ ...request, tool: dynamic })
      : handler(request),
});

describe("toolwareMiddleware and dynamically registered tools", () => {
  it("runs the chain for a tool the agent does not declare (request.tool undefined)", async () => {
    const hooks = new ToolHooks();
    const names: string[] = [];
    hooks.before((ctx) => {
      names.push(ctx.toolName);
      if (ctx.toolInput.q === "secret") ctx.block("not that");
    });
    const model = modelCalling([
      { name: "dyn_search", args: { q: "docs" }, id: "d1" },
      { name: "dyn_search", args: { q: "secret" }, id: "d2" },
    ]);
    const agent = createAgent({ model, tools: [lookup], middleware: [toolwareMiddleware(hooks), provider] });
    ran.length = 0;
    await agent.invoke({ messages: [{ role: "user", content: "find" }] });
    expect(names.sort()).toEqual(["dyn_search", "dyn_search"]);
    expect(ran).toEqual(["docs"]);
    const byId = Object.fromEntries(toolMessagesSeen(model).map((m) => [m.tool_call_id, [m.status, m.content]]));
    expect(byId.d1).toEqual(["success", "found docs"]);
    expect(byId.d2?.[0]).toBe("error");
  });

  it("an unknown tool is an error for toolware (TOOLWARE_LANGCHAIN_TOOL_ERROR) and for the model", async () => {
    const hooks = new ToolHooks();
    const codes: Array<string | undefined> = [];
    const model = modelCalling([{ name: "nope", args: {}, id: "u1" }]);
    const agent = createAgent({
      model,
      tools: [lookup],
      middleware: [toolwareMiddleware(hooks, { onOutcome: (o) => codes.push(toolwareCode(o.error)) })],
    });
    await agent.invoke({ messages: [{ role: "user", content: "x" }] });
    expect(codes).toEqual(["TOOLWARE_LANGCHAIN_TOOL_ERROR"]);
    expect(toolMessagesSeen(model)[0]?.status).toBe("error");
  });

  it("refuses bad arguments and options with codes (a typo never switches the guard off)", () => {
    const hooks = new ToolHooks();
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return toolwareCode(e);
      }
      return undefined;
    };
    expect(codeOf(() => toolwareMiddleware({} as never))).toBe("TOOLWARE_INVALID_ARGUMENT");
    expect(codeOf(() => toolwareMiddleware(hooks, { onOutcom: () => {} } as never))).toBe("TOOLWARE_UNKNOWN_OPTION");
    expect(codeOf(() => toolwareMiddleware(hooks, { bind: "x" } as never))).toBe("TOOLWARE_INVALID_OPTION");
    expect(codeOf(() => toolwareMiddleware(hooks, { tools: { a: { destrutive: true } } } as never))).toBe(
      "TOOLWARE_UNKNOWN_OPTION",
    );
    expect(codeOf(() => toolwareMiddleware(hooks, null as never))).toBe("TOOLWARE_INVALID_OPTION");
    expect(codeOf(() => toolwareMiddleware(hooks, { name: "" }))).toBe("TOOLWARE_INVALID_OPTION");
  });
});
