import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { tool } from "@langchain/core/tools";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { type ToolCallResult, toolwareMiddleware } from "@toolware/langchain";
import fc from "fast-check";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const callIds = fc.oneof(
  fc.constant(""),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ minLength: 20_000, maxLength: 20_000 }).map((s) => s || "x".repeat(20_000)),
  fc.constantFrom("\u0000", "\n\r\t", "__proto__", "constructor", "\u202e\ud800"),
  fc.constant(undefined), // LangChain's ToolCall.id is optional
);
const argObjects = fc.oneof(
  fc.record({ city: fc.string({ unit: "binary" }) }),
  fc.object(),
  fc.dictionary(fc.constantFrom("city", "__proto__", "constructor", ""), fc.anything()),
);

describe("hostile values from LangChain's side", () => {
  it("any call id and args: the loop never crashes, the model gets one ToolMessage; runs valid or fails closed", async () => {
    await fc.assert(
      fc.asyncProperty(callIds, argObjects, async (id, args) => {
        const ran: unknown[] = [];
        const weather = tool(
          async ({ city }: { city: string }) => {
            ran.push(city);
            return `sunny in ${city}`;
          },
          { name: "weather", schema: z.object({ city: z.string() }) },
        );
        const hooks = new ToolHooks();
        const outcomes: ToolCallOutcome<ToolCallResult>[] = [];
        const model = fakeModel()
          .respond(new AIMessage({ content: "", tool_calls: [{ name: "weather", args, id }] }))
          .respond(new AIMessage("done"));
        const agent = createAgent({
          model,
          tools: [weather],
          middleware: [toolwareMiddleware(hooks, { onOutcome: (o) => outcomes.push(o) })],
        });
        await agent.invoke({ messages: [{ role: "user", content: "weather?" }] });
        const seen = (model.calls[1]?.messages ?? []).filter((m: BaseMessage) => ToolMessage.isInstance(m));
        expect(seen).toHaveLength(1);
        const message = seen[0] as ToolMessage;
        expect(typeof message.content).toBe("string");
        if (id !== undefined) expect(message.tool_call_id).toBe(id);
        if (message.status === "success") {
          expect(ran).toHaveLength(1);
          expect(typeof ran[0]).toBe("string");
          expect(message.content).toBe(`sunny in ${ran[0]}`);
          expect(outcomes.map((o) => o.status)).toEqual(["ok"]);
        } else {
          expect(message.status).toBe("error");
          expect(ran).toEqual([]);
          expect(message.content).toMatch(/^Tool execution (failed|blocked)/);
          // Refused by toolware (a coded reason) or by the tool's own schema before its body ran.
          const error = outcomes.length === 1 ? outcomes[0]?.error : undefined;
          const code = toolwareCode(error);
          if (code === undefined) expect(String(error)).toContain("did not match expected schema");
          else expect(message.content).toContain(`(${code})`);
          expect(outcomes.map((o) => o.status)).toEqual(["error"]);
        }
      }),
      { numRuns: 50 },
    );
  });

  it("an own __proto__ key the model sent fails that call closed with a code, not the agent's loop", async () => {
    const weather = tool(async () => "ran", { name: "weather", schema: z.object({ city: z.string() }) });
    const args = JSON.parse('{"__proto__": {"admin": true}, "city": "Oslo"}') as Record<string, unknown>;
    const model = fakeModel()
      .respond(new AIMessage({ content: "", tool_calls: [{ name: "weather", args, id: "call_p" }] }))
      .respond(new AIMessage("done"));
    const agent = createAgent({ model, tools: [weather], middleware: [toolwareMiddleware(new ToolHooks())] });
    await agent.invoke({ messages: [{ role: "user", content: "weather?" }] });
    const [message] = (model.calls[1]?.messages ?? []).filter((m: BaseMessage) => ToolMessage.isInstance(m));
    expect((message as ToolMessage).status).toBe("error");
    expect((message as ToolMessage).content).toContain("(TOOLWARE_INVALID_INPUT)");
    expect((message as ToolMessage).tool_call_id).toBe("call_p");
  });
});
