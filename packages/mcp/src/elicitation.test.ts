import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type ApprovalBinding, digestArguments, scriptedHumanInput, ToolHooks, toolwareCode } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { elicitationHumanInput, guardServer } from "./index.js";
import { firstText, link, newClient } from "./test-fixtures.js";

type Answer = (message: string) => { action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> };

// A guarded server whose destructive tool needs approval, and a client that may answer elicitations.
async function setup(answer: Answer | undefined) {
  const hooks = new ToolHooks({ humanInput: elicitationHumanInput() });
  hooks.use(approval({ tools: { destructive: true } }));
  const server = guardServer(new McpServer({ name: "notes", version: "1.0.0" }), hooks);
  const deleted: string[] = [];
  server.registerTool(
    "delete_note",
    { inputSchema: { name: z.string() }, annotations: { destructiveHint: true } },
    async ({ name }) => {
      deleted.push(name);
      return { content: [{ type: "text", text: `deleted ${name}` }] };
    },
  );
  const asked: string[] = [];
  const client = newClient(answer === undefined ? {} : { capabilities: { elicitation: {} } });
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer(request.params.message);
    });
  }
  await link(server, client);
  return { client, deleted, asked };
}

describe("approval through MCP elicitation", () => {
  it("asks the person behind the client; 'yes' runs the tool", async () => {
    const { client, deleted, asked } = await setup(() => ({ action: "accept", content: { answer: "yes" } }));
    const result = await client.callTool({ name: "delete_note", arguments: { name: "a.md" } });
    expect(result.isError).toBeUndefined();
    expect(deleted).toEqual(["a.md"]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("delete_note");
    expect(asked[0]).toContain("a.md");
  });

  it("approving one of several parallel calls and denying another", async () => {
    const { client, deleted } = await setup((message) => ({
      action: "accept",
      content: { answer: message.includes("keep.md") ? "no" : "yes" },
    }));
    const [a, b] = await Promise.all([
      client.callTool({ name: "delete_note", arguments: { name: "old.md" } }),
      client.callTool({ name: "delete_note", arguments: { name: "keep.md" } }),
    ]);
    expect(a?.isError).toBeUndefined();
    expect(b?.isError).toBe(true);
    expect(firstText(b)).toContain("did not approve");
    expect(deleted).toEqual(["old.md"]);
  });

  it("denies when the person declines or cancels, or sends no answer", async () => {
    const answers: Answer[] = [
      () => ({ action: "decline" }),
      () => ({ action: "cancel" }),
      () => ({ action: "accept", content: {} }),
    ];
    for (const answer of answers) {
      const { client, deleted } = await setup(answer);
      const result = await client.callTool({ name: "delete_note", arguments: { name: "a.md" } });
      expect(result.isError).toBe(true);
      expect(deleted).toEqual([]);
    }
  });

  it("denies when the client does not support elicitation", async () => {
    const { client, deleted } = await setup(undefined);
    const result = await client.callTool({ name: "delete_note", arguments: { name: "a.md" } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(/approv/);
    expect(deleted).toEqual([]);
  });

  it("outside a guarded server: the fallback answers, or the question fails with a code", async () => {
    const request = {
      prompt: "ok?",
      defaultMessage: undefined,
      toolName: "t",
      callId: "nowhere",
      signal: new AbortController().signal,
    };
    const error = await Promise.resolve(elicitationHumanInput()(request)).catch((e: unknown) => e);
    expect(toolwareCode(error)).toBe("TOOLWARE_HUMAN_INPUT_UNAVAILABLE");
    expect(await elicitationHumanInput({ fallback: scriptedHumanInput("yes") })(request)).toBe("yes");
    expect(() => elicitationHumanInput({ fallbak: scriptedHumanInput("yes") } as never)).toThrow(
      expect.objectContaining({ code: "TOOLWARE_UNKNOWN_OPTION" }),
    );
    expect(() => elicitationHumanInput({ fallback: "yes" } as never)).toThrow(TypeError);
  });
});

describe("approval through MCP elicitation: the question names its call", () => {
  it("the elicitation carries the binding (tool, call id, argument digest) of the call it asks about", async () => {
    const hooks = new ToolHooks({ humanInput: elicitationHumanInput() });
    hooks.use(approval({ tools: { destructive: true } }));
    const server = guardServer(new McpServer({ name: "notes", version: "1.0.0" }), hooks);
    server.registerTool(
      "delete_note",
      { inputSchema: { name: z.string() }, annotations: { destructiveHint: true } },
      async ({ name }) => ({ content: [{ type: "text", text: `deleted ${name}` }] }),
    );
    const bindings: unknown[] = [];
    const client = newClient({ capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      bindings.push(request.params._meta?.["toolware/binding"]);
      return { action: "accept", content: { answer: "yes" } };
    });
    await link(server, client);
    await client.callTool({ name: "delete_note", arguments: { name: "a.md" } });
    const [bound] = bindings as ApprovalBinding[];
    expect(bound?.toolName).toBe("delete_note");
    expect(bound?.digest).toBe(digestArguments({ name: "a.md" }));
    expect(bound?.callId).toMatch(/\S/);
  });
});
