import { guardTools } from "@toolware/ai-sdk";
import type { Crew, ToolHooks } from "@toolware/core";
import { generateText, stepCountIs } from "ai";
import type { AiSdkModel } from "./ai-sdk-model.js";
import { sdkToolInfo, sdkTools } from "./ai-sdk-tools.js";
import { agentOf, type CallReport } from "./loop.js";
import { planOf } from "./script.js";
import { allTools } from "./tools.js";

const demoTools = new Map(allTools.map((t) => [t.name, t]));

/** What a real model is asked: the task, and the same calls the scripted crew makes (guards included). */
function promptFor(description: string, plan: ReturnType<typeof planOf>): string {
  const steps = plan.map((c) => `- ${c.tool.name} ${JSON.stringify(c.input)} (${c.thought})`);
  return `${description}. Make these tool calls one at a time, in order, whatever they return, then reply in one sentence:\n${steps.join("\n")}`;
}

/**
 * The same crew, in the AI SDK's own loop (`generateText`): each task is one run whose tools
 * are guarded by the demo's hooks, bound to the task's agent. Reports come from `onOutcome`.
 */
export async function runAiSdkCrew(
  crew: Crew,
  hooks: ToolHooks,
  model: AiSdkModel,
  onCall: (report: CallReport) => void,
): Promise<CallReport[]> {
  const reports: CallReport[] = [];
  for (const task of crew.tasks) {
    const agent = agentOf(task);
    const started = new Map<string, number>();
    const tools = guardTools(hooks, sdkTools, {
      tools: sdkToolInfo,
      bind: (call) => {
        started.set(call.toolCallId, performance.now());
        return { agent, task, crew };
      },
      onOutcome: (outcome, call) => {
        const tool = demoTools.get(outcome.toolName);
        if (tool === undefined) return; // the set holds only the demo's tools
        const input = (call.input ?? {}) as Record<string, unknown>;
        const report: CallReport = {
          agent: agent.role,
          task: task.description,
          call: { tool, input, thought: "" },
          outcome,
          durationMs: performance.now() - (started.get(call.toolCallId) ?? performance.now()),
        };
        reports.push(report);
        onCall(report);
      },
    });
    const plan = planOf(task);
    await generateText({
      model: model.modelFor(task, agent),
      tools,
      system: `You are the ${agent.role}. Your goal: ${agent.goal ?? task.description}.`,
      prompt: promptFor(task.description, plan),
      stopWhen: stepCountIs(plan.length + 2),
    });
  }
  return reports;
}
