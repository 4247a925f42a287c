import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tool } from "@langchain/core/tools";
import { Command, MemorySaver } from "@langchain/langgraph";
import { type ToolCallOutcome, ToolHooks } from "@toolware/core";
import {
  interruptHumanInput,
  type ToolCallResult,
  type ToolwareInterrupt,
  toolwareMiddleware,
} from "@toolware/langchain";
import { analytics } from "@toolware/packs/analytics";
import { approval } from "@toolware/packs/approval";
import { audit } from "@toolware/packs/audit";
import { loopGuard } from "@toolware/packs/loop-guard";
import { rateLimit } from "@toolware/packs/rate-limit";
import { createAgent } from "langchain";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { modelCalling, toolMessagesSeen } from "./test-fixtures.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolware-langchain-audit-"));
  dirs.push(dir);
  return dir;
}

// The audit lines of one call id; a missing file means no line was written.
function auditLines(file: string, callId: string): { callId: string; status: string }[] {
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  return lines.map((l) => JSON.parse(l) as { callId: string; status: string }).filter((r) => r.callId === callId);
}

function setup(checkpointer = new MemorySaver(), auditFile = join(tempDir(), "audit.jsonl")) {
  const sent: string[] = [];
  const sendEmail = tool(
    async ({ to }: { to: string }) => {
      sent.push(to);
      return `sent to ${to}`;
    },
    { name: "send_email", schema: z.object({ to: z.string() }) },
  );
  const hooks = new ToolHooks({ humanInput: interruptHumanInput() });
  const usage = analytics();
  hooks.use(rateLimit({ max: 1, per: "1m" }));
  hooks.use(loopGuard({ maxRepeats: 2 }));
  hooks.use(usage);
  const trail = audit({ file: auditFile, durability: "write" });
  hooks.use(trail);
  hooks.use(approval({ tools: ["send_email"], timeoutMs: Number.POSITIVE_INFINITY }));
  const outcomes: ToolCallOutcome<ToolCallResult>[] = [];
  const agentWith = (model: ReturnType<typeof modelCalling>) =>
    createAgent({
      model,
      tools: [sendEmail],
      checkpointer,
      middleware: [toolwareMiddleware(hooks, { onOutcome: (o) => outcomes.push(o) })],
    });
  return {
    sent,
    hooks,
    usage,
    outcomes,
    agentWith,
    trail,
    audited: (callId: string) => auditLines(trail.file, callId),
  };
}

const ask = { messages: [{ role: "user", content: "mail the ceo" }] };

describe("durable approval through LangGraph's interrupt()", () => {
  it("pauses the run, resumes with Command({ resume }), and counts the call once", async () => {
    const { sent, usage, outcomes, agentWith, audited } = setup();
    const model = modelCalling([{ name: "send_email", args: { to: "ceo@example.com" }, id: "call_ap1" }]);
    const agent = agentWith(model);
    const config = { configurable: { thread_id: "t-approve" } };
    const paused = await agent.invoke(ask, config);
    const interrupts = paused.__interrupt__ ?? [];
    expect(interrupts).toHaveLength(1);
    const question = interrupts[0]?.value as ToolwareInterrupt;
    expect(question.kind).toBe("toolware/human-input");
    expect(question.callId).toBe("call_ap1");
    expect(question.prompt).toContain("send_email");
    expect(sent).toEqual([]);
    expect(outcomes).toEqual([]);
    expect(audited("call_ap1")).toEqual([]);

    await agent.invoke(new Command({ resume: "yes" }), config);
    // The rate limit of 1 let the resumed call through: the first pass and the resume are one call.
    expect(sent).toEqual(["ceo@example.com"]);
    expect(outcomes.map((o) => [o.callId, o.status])).toEqual([["call_ap1", "ok"]]);
    expect(usage.stats().tools.send_email?.count).toBe(1);
    expect(audited("call_ap1").map((r) => r.status)).toEqual(["ok"]);
    const [seen] = toolMessagesSeen(model);
    expect(seen?.status).toBe("success");
    expect(seen?.tool_call_id).toBe("call_ap1");
  });

  it("a rejection reaches the model as an error ToolMessage", async () => {
    const { sent, outcomes, agentWith, audited } = setup();
    const model = modelCalling([{ name: "send_email", args: { to: "all@example.com" }, id: "call_no" }]);
    const agent = agentWith(model);
    const config = { configurable: { thread_id: "t-reject" } };
    await agent.invoke(ask, config);
    await agent.invoke(new Command({ resume: "no" }), config);
    expect(sent).toEqual([]);
    expect(outcomes.map((o) => o.status)).toEqual(["blocked"]);
    expect(audited("call_no").map((r) => r.status)).toEqual(["blocked"]);
    const [seen] = toolMessagesSeen(model);
    expect(seen?.status).toBe("error");
    expect(seen?.content).toContain("did not approve");
  });

  it("resumes from the checkpointer in a fresh agent instance (MemorySaver shared)", async () => {
    const { sent, usage, outcomes, agentWith } = setup();
    const calls = [{ name: "send_email", args: { to: "ops@example.com" }, id: "call_fresh" }];
    const config = { configurable: { thread_id: "t-fresh" } };
    await agentWith(modelCalling(calls)).invoke(ask, config);
    // The second agent's model picks up after the tool: its first turn is the one after the call.
    const second = modelCalling([]);
    await agentWith(second).invoke(new Command({ resume: "yes" }), config);
    expect(sent).toEqual(["ops@example.com"]);
    expect(outcomes.map((o) => o.status)).toEqual(["ok"]);
    expect(usage.stats().tools.send_email?.count).toBe(1);
  });

  it("resumes in a new process: fresh hooks and agent, the chain runs once there with the stored answer", async () => {
    const checkpointer = new MemorySaver();
    const file = join(tempDir(), "audit.jsonl");
    const first = setup(checkpointer, file);
    const config = { configurable: { thread_id: "t-restart" } };
    await first
      .agentWith(modelCalling([{ name: "send_email", args: { to: "x@example.com" }, id: "call_rs" }]))
      .invoke(ask, config);
    first.trail.close(); // the first process has gone: its audit() lets go of the file
    const second = setup(checkpointer, file);
    await second.agentWith(modelCalling([])).invoke(new Command({ resume: "yes" }), config);
    expect(first.sent).toEqual([]);
    expect(second.sent).toEqual(["x@example.com"]);
    expect(second.outcomes.map((o) => [o.callId, o.status])).toEqual([["call_rs", "ok"]]);
    expect(second.usage.stats().tools.send_email?.count).toBe(1);
    // Both processes append to one trail: the paused pass wrote nothing, the resumed one a single line.
    expect(second.audited("call_rs").map((r) => r.status)).toEqual(["ok"]);
  });

  it("mixed decisions on parallel calls keep the approved one", async () => {
    const { sent, outcomes } = setup();
    const sendEmail = tool(
      async ({ to }: { to: string }) => {
        sent.push(to);
        return `sent to ${to}`;
      },
      { name: "send_email", schema: z.object({ to: z.string() }) },
    );
    const h2 = new ToolHooks({ humanInput: interruptHumanInput() });
    h2.use(approval({ tools: ["send_email"], timeoutMs: Number.POSITIVE_INFINITY }));
    const model = modelCalling([
      { name: "send_email", args: { to: "a@example.com" }, id: "call_a" },
      { name: "send_email", args: { to: "b@example.com" }, id: "call_b" },
    ]);
    const agent = createAgent({
      model,
      tools: [sendEmail],
      checkpointer: new MemorySaver(),
      middleware: [toolwareMiddleware(h2, { onOutcome: (o) => outcomes.push(o) })],
    });
    const config = { configurable: { thread_id: "t-mixed" } };
    const paused = await agent.invoke(ask, config);
    const interrupts = paused.__interrupt__ ?? [];
    expect(interrupts).toHaveLength(2);
    const resume: Record<string, string> = {};
    for (const i of interrupts) {
      const value = i.value as ToolwareInterrupt;
      resume[i.id as string] = value.callId === "call_a" ? "yes" : "no";
    }
    await agent.invoke(new Command({ resume }), config);
    expect(sent).toEqual(["a@example.com"]);
    const byId = Object.fromEntries(toolMessagesSeen(model).map((m) => [m.tool_call_id, m.status]));
    expect(byId).toEqual({ call_a: "success", call_b: "error" });
    expect(outcomes.map((o) => [o.callId, o.status]).sort()).toEqual([
      ["call_a", "ok"],
      ["call_b", "blocked"],
    ]);
  });

  it("without a checkpointer the question cannot pause the run: the approval denies (fail closed)", async () => {
    const sent: string[] = [];
    const sendEmail = tool(
      async ({ to }: { to: string }) => {
        sent.push(to);
        return "sent";
      },
      { name: "send_email", schema: z.object({ to: z.string() }) },
    );
    const hooks = new ToolHooks({ humanInput: interruptHumanInput() });
    hooks.use(approval({ tools: ["send_email"] }));
    const model = modelCalling([{ name: "send_email", args: { to: "x@example.com" }, id: "call_nc" }]);
    const agent = createAgent({ model, tools: [sendEmail], middleware: [toolwareMiddleware(hooks)] });
    await agent.invoke(ask);
    expect(sent).toEqual([]);
    expect(toolMessagesSeen(model)[0]?.status).toBe("error");
  });

  it("a resume value that is not a string denies the call", async () => {
    const { sent, outcomes, agentWith } = setup();
    const model = modelCalling([{ name: "send_email", args: { to: "q@example.com" }, id: "call_obj" }]);
    const agent = agentWith(model);
    const config = { configurable: { thread_id: "t-obj" } };
    await agent.invoke(ask, config);
    await agent.invoke(new Command({ resume: { approved: true } }), config);
    expect(sent).toEqual([]);
    expect(outcomes.map((o) => o.status)).toEqual(["blocked"]);
  });
});
