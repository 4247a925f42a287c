import type { Agent, Crew, Task, ToolCallOutcome, ToolHooks } from "@toolware/core";
import type { PlannedCall, ScriptedModel } from "./script.js";

/** One finished tool call, as the agent loop reports it. */
export interface CallReport {
  agent: string;
  task: string;
  call: PlannedCall;
  outcome: ToolCallOutcome;
  durationMs: number;
}

/** The agent a task of the demo's crew is given to. */
export function agentOf(task: Task): Agent {
  if (task.agent === undefined) throw new Error(`task "${task.description}" has no agent`);
  return task.agent;
}

/**
 * A minimal agent loop: for each task, ask the model for the next tool call,
 * run it through the hooks, hand the agent-facing result back as an
 * observation, until the model stops. Real loops (Vercel AI SDK, LangChain,
 * OpenAI Agents) have the same shape: toolware sits where the tool runs.
 */
export async function runCrew(
  crew: Crew,
  hooks: ToolHooks,
  model: ScriptedModel,
  onCall: (report: CallReport) => void,
): Promise<CallReport[]> {
  const reports: CallReport[] = [];
  for (const task of crew.tasks) {
    const agent = agentOf(task);
    const observations: string[] = [];
    for (let call = model(task, agent, observations); call !== undefined; call = model(task, agent, observations)) {
      const started = performance.now();
      // Each call gets its own copy of the planned input: hooks mutate inputs in place.
      const outcome = await hooks.invoke(call.tool, { ...call.input }, { agent, task, crew });
      const report = {
        agent: agent.role,
        task: task.description,
        call,
        outcome,
        durationMs: performance.now() - started,
      };
      reports.push(report);
      onCall(report);
      observations.push(outcome.result);
    }
  }
  return reports;
}
