import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { bindApproval, ToolHooks } from "@toolware/core";
import { interruptHumanInput, type ToolwareInterrupt, toolwareMiddleware } from "@toolware/langchain";
import { type ApprovalDecision, approval } from "@toolware/packs/approval";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { modelCalling } from "./test-fixtures.js";

type Graph = {
  getState(config: object): Promise<{ values: { messages: BaseMessage[] } }>;
  updateState(config: object, values: object): Promise<unknown>;
};

function setup(thread: string, first: { name: string; args: Record<string, unknown> }) {
  const ran: string[] = [];
  const sendEmail = tool(
    async ({ to }: { to: string }) => {
      ran.push(`send:${to}`);
      return `sent to ${to}`;
    },
    { name: "send_email", schema: z.object({ to: z.string() }) },
  );
  const deleteAccount = tool(
    async (args: { user?: string; to?: string }) => {
      ran.push(`delete:${JSON.stringify(args)}`);
      return "deleted";
    },
    { name: "delete_account", schema: z.object({ user: z.string().optional(), to: z.string().optional() }) },
  );
  const hooks = new ToolHooks({ humanInput: interruptHumanInput() });
  const decisions: ApprovalDecision[] = [];
  hooks.use(
    approval({
      tools: ["send_email", "delete_account"],
      timeoutMs: Number.POSITIVE_INFINITY,
      editMode: "replace",
      onDecision: (d) => decisions.push(d),
    }),
  );
  const agent = createAgent({
    model: modelCalling([{ ...first, id: "call_0" }]),
    tools: [sendEmail, deleteAccount],
    checkpointer: new MemorySaver(),
    middleware: [toolwareMiddleware(hooks)],
  });
  const config = { configurable: { thread_id: thread } };
  const graph = (agent as unknown as { graph: Graph }).graph;
  // What a human-in-the-loop UI (or a replayed model message) does: the pending tool call changes, same id.
  const replaceCall = async (name: string, args: Record<string, unknown>) => {
    const { values } = await graph.getState(config);
    const last = values.messages.at(-1) as AIMessage;
    const call = { name, args, id: "call_0", type: "tool_call" as const };
    await graph.updateState(config, { messages: [new AIMessage({ id: last.id, content: "", tool_calls: [call] })] });
  };
  const invoke = async (input: object) => {
    const result = (await agent.invoke(input as never, config)) as { __interrupt__?: { value?: unknown }[] };
    return result.__interrupt__?.[0]?.value as ToolwareInterrupt | undefined;
  };
  return { ran, decisions, replaceCall, invoke };
}

const say = { messages: [{ role: "user", content: "go" }] };

describe("LangGraph interrupt/resume: an answer answers the call it was asked for", () => {
  it("a tool call replaced by another tool under the same id while its question waits is asked again", async () => {
    const { ran, replaceCall, invoke } = setup("t-tool", { name: "send_email", args: { to: "ann" } });
    const first = await invoke(say);
    expect(first?.binding).toEqual(bindApproval("send_email", "call_0", { to: "ann" }));
    await replaceCall("delete_account", { user: "ann" });
    // The "yes" was given for send_email: it must not run delete_account (today it runs it, with send_email's arguments).
    const again = await invoke(new Command({ resume: "yes" }));
    expect(ran).toEqual([]);
    expect(again?.toolName).toBe("delete_account");
    expect(again?.binding).toEqual(bindApproval("delete_account", "call_0", { user: "ann" }));
    await invoke(new Command({ resume: "yes" }));
    expect(ran).toEqual(['delete:{"user":"ann"}']);
  });

  it("the same tool and id with other arguments is asked again; a no then runs nothing", async () => {
    const { ran, replaceCall, invoke } = setup("t-args", { name: "send_email", args: { to: "ann" } });
    await invoke(say);
    await replaceCall("send_email", { to: "mallory" });
    const again = await invoke(new Command({ resume: "yes" }));
    expect(ran).toEqual([]);
    expect(again?.prompt).toContain("mallory");
    await invoke(new Command({ resume: "no" }));
    expect(ran).toEqual([]);
  });

  it("a resume that names its call ({ answer, binding }) runs only that call", async () => {
    const { ran, invoke } = setup("t-bound", { name: "send_email", args: { to: "ann" } });
    const asked = await invoke(say);
    await invoke(new Command({ resume: { answer: "yes", binding: asked?.binding } }));
    expect(ran).toEqual(["send:ann"]);

    const other = setup("t-bound-2", { name: "send_email", args: { to: "ann" } });
    const stale = await other.invoke(say);
    await other.replaceCall("send_email", { to: "mallory" });
    // An answer naming the call it was given for is refused by the call that replaced it.
    const wrong = bindApproval("send_email", "call_0", { to: "ann" });
    expect(stale?.binding).toEqual(wrong);
    await other.invoke(new Command({ resume: { answer: "yes", binding: wrong } }));
    const next = await other.invoke(new Command({ resume: { answer: "yes", binding: wrong } }));
    expect(other.ran).toEqual([]);
    expect(next).toBeUndefined();
  });

  it("an edited approval runs the edited arguments only, and its decision carries their digest", async () => {
    const { ran, decisions, invoke } = setup("t-edit", { name: "send_email", args: { to: "all@example.com" } });
    await invoke(say);
    await invoke(new Command({ resume: 'edit {"to":"team@example.com"}' }));
    expect(ran).toEqual(["send:team@example.com"]);
    expect(decisions.at(-1)?.edited).toBe(true);
    expect(decisions.at(-1)?.binding).toEqual(bindApproval("send_email", "call_0", { to: "team@example.com" }));
  });
});
