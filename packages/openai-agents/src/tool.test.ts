import { Agent, run, tool as sdkTool, setTracingDisabled } from "@openai/agents";
import { assistantMessage, functionCall, ScriptedModel } from "@openai/agents/testing";
import { type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { redact } from "@toolware/packs/redact";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { guardAgent, tool } from "./index.js";
import { toolOutputs } from "./test-fixtures.js";

beforeAll(() => setTracingDisabled(true));

const SECRET = "sk-proj-abc123def456ghi789jkl";
const failing = (make: typeof sdkTool, errorFunction?: () => string) =>
  make({
    name: "deploy",
    description: "fails with a secret in the error",
    parameters: z.object({ env: z.string() }),
    ...(errorFunction === undefined ? {} : { errorFunction }),
    execute: ({ env }) => {
      throw new Error(`deploy to ${env} refused: token ${SECRET} expired`);
    },
  });

async function runOnce(t: ReturnType<typeof sdkTool>, hooks: ToolHooks, outcomes: ToolCallOutcome[] = []) {
  const model = new ScriptedModel([
    [functionCall("deploy", { env: "prod" }, { callId: "d1" })],
    [assistantMessage("ok")],
  ]);
  await run(
    guardAgent(new Agent({ name: "a", model, tools: [t] }), hooks, { onOutcome: (o) => outcomes.push(o) }),
    "go",
  );
  return String(toolOutputs(model.calls[1]?.request).d1);
}

describe("tool(): the SDK's tool() whose errors reach toolware", () => {
  it("the real error, redacted by an after-hook, reaches the model's next turn", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const outcomes: ToolCallOutcome[] = [];
    const output = await runOnce(failing(tool), hooks, outcomes);
    expect(output).toMatch(/^Tool execution failed\. Tool: deploy\. Error: deploy to prod refused: token .* expired$/);
    expect(output).not.toContain(SECRET);
    expect(output).not.toContain("An error occurred while running the tool");
    expect(outcomes.map((o) => [o.status, o.callId])).toEqual([["error", "d1"]]);
    expect(String(outcomes[0]?.error)).toContain("deploy to prod refused");
  });

  it("the SDK's own tool() still hides the error: the model reads a plain failure, the developer the advice", async () => {
    const outcomes: ToolCallOutcome[] = [];
    const reported: [string, unknown][] = [];
    const hooks = new ToolHooks({ onListenerError: (where, error) => reported.push([where, error]) });
    const calls: unknown[] = [];
    hooks.on("call:error", ({ error }) => calls.push(error));
    const deploy = failing(sdkTool);
    const output = await runOnce(deploy, hooks, outcomes);
    // What the model reads names no function, package or option: advice for the developer is not for it.
    expect(output).toBe("Tool execution failed. Tool: deploy. Error: toolware: the tool failed");
    expect(output).not.toContain(SECRET);
    // The code on the error (the outcome and the call:error event), the advice in the logs (onListenerError).
    expect(toolwareCode(outcomes[0]?.error)).toBe("TOOLWARE_OPENAI_ERROR_HIDDEN");
    expect(calls.map(toolwareCode)).toEqual(["TOOLWARE_OPENAI_ERROR_HIDDEN"]);
    expect(reported).toHaveLength(1);
    expect(reported[0]?.[0]).toBe("openai-agents.errorFunction");
    expect(toolwareCode(reported[0]?.[1])).toBe("TOOLWARE_OPENAI_ERROR_HIDDEN");
    expect(String(reported[0]?.[1])).toContain("create it with tool() from @toolware/openai-agents");
    // Once per tool, not once per failing call.
    await runOnce(deploy, hooks, outcomes);
    expect(reported).toHaveLength(1);
  });

  it("keeps an errorFunction the caller passed", async () => {
    const outcomes: ToolCallOutcome[] = [];
    const output = await runOnce(
      failing(tool, () => "deploy is down, try later"),
      new ToolHooks(),
      outcomes,
    );
    expect(output).toBe("deploy is down, try later");
    expect(outcomes.map((o) => o.status)).toEqual(["ok"]);
  });

  it("a tool that succeeds is unchanged", async () => {
    const t = tool({
      name: "echo",
      description: "echo",
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => q,
    });
    const model = new ScriptedModel([[functionCall("echo", { q: "hi" }, { callId: "e1" })], [assistantMessage("ok")]]);
    await run(guardAgent(new Agent({ name: "a", model, tools: [t] }), new ToolHooks()), "go");
    expect(toolOutputs(model.calls[1]?.request).e1).toBe("hi");
    expect(t.type).toBe("function");
    expect(t.name).toBe("echo");
  });
});
