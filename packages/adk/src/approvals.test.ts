import { type Context, FunctionTool, InMemoryRunner, LlmAgent } from "@google/adk";
import { defineTool, scriptedHumanInput, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { adkApprovals, adkCall, toolwarePlugin } from "./index.js";
import { answer, call, confirmationsIn, responsesIn, ScriptedLlm, type Turn, turn } from "./test-fixtures.js";

function setUp(turns: Turn[], provider = adkApprovals()) {
  const sent: unknown[] = [];
  const contexts: Context[] = [];
  const outcomes: ToolCallOutcome[] = [];
  const send = new FunctionTool({
    name: "send_email",
    description: "Sends an email",
    parameters: z.object({ to: z.string() }),
    execute: async ({ to }, context) => {
      sent.push(to);
      if (context !== undefined) contexts.push(context);
      return { sent: to };
    },
  });
  const hooks = new ToolHooks({ humanInput: provider, onListenerError: () => {} });
  hooks.use(approval({ tools: ["send_email"] }));
  const model = new ScriptedLlm(turns);
  const plugin = toolwarePlugin(hooks, { onOutcome: (o) => outcomes.push(o) });
  const runner = new InMemoryRunner({
    agent: new LlmAgent({ name: "ops", model, tools: [send] }),
    appName: "app",
    plugins: [plugin],
  });
  return { sent, contexts, outcomes, model, runner, plugin, send };
}

async function asked(s: ReturnType<typeof setUp>) {
  const { id } = await s.runner.sessionService.createSession({ appName: "app", userId: "u" });
  const events = await turn(s.runner, id, "mail the CEO");
  return { id, gates: confirmationsIn(events) };
}

describe("approvals through ADK's tool confirmations", () => {
  it("asks through adk_request_confirmation, bound to the call; a confirmed answer runs it once", async () => {
    const s = setUp([[call("send_email", { to: "ceo@example.com" }, "c1")]]);
    const { id, gates } = await asked(s);
    expect(s.sent).toEqual([]);
    expect(gates).toHaveLength(1);
    const gate = gates[0] as { id: string; args: Record<string, unknown> };
    expect(gate.args.originalFunctionCall).toMatchObject({
      id: "c1",
      name: "send_email",
      args: { to: "ceo@example.com" },
    });
    const payload = (gate.args.toolConfirmation as { payload: { toolware: Record<string, unknown> } }).payload;
    expect(payload.toolware).toMatchObject({
      toolName: "send_email",
      callId: "c1",
      digest: expect.stringMatching(/^sha256:/),
    });
    expect(s.outcomes.map((o) => o.status)).toEqual(["blocked"]);

    await turn(s.runner, id, answer(gate.id, true));
    expect(s.sent).toEqual(["ceo@example.com"]);
    expect(responsesIn(s.model.requests.at(-1)?.contents).get("c1")).toEqual({ sent: "ceo@example.com" });
    expect(s.outcomes.map((o) => o.status)).toEqual(["blocked", "ok"]);

    // The same answer again: ADK finds the call answered, and toolware's question is used up.
    await turn(s.runner, id, answer(gate.id, true));
    expect(s.sent).toEqual(["ceo@example.com"]);
  });

  it("a rejected confirmation blocks the call and the model reads why", async () => {
    const s = setUp([[call("send_email", { to: "ceo@example.com" }, "c1")]]);
    const { id, gates } = await asked(s);
    await turn(s.runner, id, answer(String(gates[0]?.id), false));
    expect(s.sent).toEqual([]);
    expect(String(responsesIn(s.model.requests.at(-1)?.contents).get("c1")?.error)).toMatch(
      /blocked by hook\. Tool: send_email\. Reason: a human did not approve send_email/,
    );
  });

  it("a confirmation replayed into the plugin is refused: one answer, one call", async () => {
    const s = setUp([[call("send_email", { to: "ceo@example.com" }, "c1")]]);
    const { id, gates } = await asked(s);
    await turn(s.runner, id, answer(String(gates[0]?.id), true));
    const context = s.contexts[0] as Context;
    expect(context.toolConfirmation?.confirmed).toBe(true);
    const args = { to: "ceo@example.com" };
    const replay = await s.plugin.beforeToolCallback({ tool: s.send, toolArgs: args, toolContext: context });
    expect(String(replay?.error)).toMatch(/used already/);
    expect(s.sent).toEqual(["ceo@example.com"]);
  });

  it("a confirmation toolware did not ask for (the tool's own requireConfirmation) does not answer toolware's question", async () => {
    const sent: unknown[] = [];
    const send = new FunctionTool({
      name: "send_email",
      description: "Sends an email",
      parameters: z.object({ to: z.string() }),
      requireConfirmation: true,
      execute: async ({ to }) => {
        sent.push(to);
        return { sent: to };
      },
    });
    const hooks = new ToolHooks({ humanInput: adkApprovals(), onListenerError: () => {} });
    // A question asked only on the resumed call: the first pass is ADK's own gate.
    hooks.use(
      approval({
        tools: (ctx) => ctx.toolName === "send_email" && adkCall(ctx)?.toolContext.toolConfirmation !== undefined,
      }),
    );
    const model = new ScriptedLlm([[call("send_email", { to: "x@example.com" }, "c1")]]);
    const runner = new InMemoryRunner({
      agent: new LlmAgent({ name: "ops", model, tools: [send] }),
      appName: "app",
      plugins: [toolwarePlugin(hooks)],
    });
    const { id } = await runner.sessionService.createSession({ appName: "app", userId: "u" });
    const gates = confirmationsIn(await turn(runner, id, "go"));
    expect(gates).toHaveLength(1);
    const events = await turn(runner, id, answer(String(gates[0]?.id), true));
    expect(sent).toEqual([]);
    expect(String(responsesIn(model.requests.at(-1)?.contents).get("c1")?.error ?? JSON.stringify(events))).toMatch(
      /answers no question toolware asked/,
    );
  });

  it("questions of calls that did not come through the plugin go to the fallback, or fail closed", async () => {
    const fallback = scriptedHumanInput(["yes"]);
    const hooks = new ToolHooks({ humanInput: adkApprovals({ fallback }) });
    hooks.use(approval());
    const tool = defineTool({ name: "t", execute: () => "ran" });
    expect((await hooks.invoke(tool, {})).status).toBe("ok");
    expect(fallback.requests).toHaveLength(1);
    const closed = new ToolHooks({ humanInput: adkApprovals() });
    closed.use(approval());
    expect((await closed.invoke(tool, {})).reason).toMatch(/did not come through toolware's ADK plugin/);
  });

  it("refuses unknown options with a hint", () => {
    expect(() => adkApprovals({ fallbak: () => "yes" } as never)).toThrow(/unknown option `fallbak`/);
    expect(() => adkApprovals({ fallback: "yes" } as never)).toThrow(
      /TOOLWARE_INVALID_OPTION|must be a human-input provider/,
    );
  });
});
