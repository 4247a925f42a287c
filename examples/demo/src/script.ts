import { Agent, Crew, Task, type Tool } from "@toolware/core";
import { deleteFile, fetchProfile, getWeather, readFile, sendEmail, webSearch } from "./tools.js";

/** One tool call the scripted model decides to make. */
export interface PlannedCall {
  tool: Tool<never, unknown>;
  input: Record<string, unknown>;
  /** What the "model" is thinking, shown in the live output. */
  thought: string;
}

/** A deterministic stand-in for an LLM: it plans each task's tool calls and reacts to observations. */
export type ScriptedModel = (task: Task, agent: Agent, observations: readonly string[]) => PlannedCall | undefined;

export const researcher = new Agent({ role: "researcher", goal: "Find out what agent builders use" });
export const junior = new Agent({ role: "junior_agent", goal: "Keep the notes folder tidy" });
export const ops = new Agent({ role: "ops_agent", goal: "Keep customers informed" });

export const research = new Task({ description: "Research TypeScript agent frameworks", agent: researcher });
export const tidy = new Task({ description: "Tidy the notes folder", agent: junior });
export const notify = new Task({ description: "Email the customer about the release", agent: ops });

export const crew = new Crew({
  name: "release crew",
  agents: [researcher, junior, ops],
  tasks: [research, tidy, notify],
});

const plans = new Map<Task, PlannedCall[]>([
  [
    research,
    [
      { tool: webSearch, input: { query: "agent tool hooks" }, thought: "search the web" },
      { tool: webSearch, input: { query: "agent tool hooks" }, thought: "search again (the model is stuck)" },
      { tool: webSearch, input: { query: "agent tool hooks" }, thought: "…and again" },
      { tool: webSearch, input: { query: "koa middleware" }, thought: "a different query" },
      { tool: getWeather, input: { city: "Lisbon" }, thought: "check the weather for the launch" },
      { tool: getWeather, input: { city: "Lisbon" }, thought: "check it once more" },
    ],
  ],
  [
    tidy,
    [
      { tool: readFile, input: { path: "notes/plan.md" }, thought: "read the plan" },
      { tool: readFile, input: { path: "notes/%2e%2e/%2e%2e/etc/passwd" }, thought: "peek outside the workspace" },
      { tool: deleteFile, input: { path: "notes/plan.md" }, thought: "delete the old plan" },
    ],
  ],
  [
    notify,
    [
      { tool: fetchProfile, input: { id: "cus_42" }, thought: "look the customer up" },
      { tool: sendEmail, input: { to: "grace@example.com", subject: "toolware 0.1 is out" }, thought: "send the news" },
      {
        tool: sendEmail,
        input: { to: "everyone@example.com", subject: "toolware 0.1 is out" },
        thought: "tell everyone",
      },
    ],
  ],
]);

/** The tool calls a task's plan makes, in order. */
export const planOf = (task: Task): readonly PlannedCall[] => plans.get(task) ?? [];

/** The demo's model: it follows each task's plan, one call per turn. */
export const scriptedModel: ScriptedModel = (task, _agent, observations) => plans.get(task)?.[observations.length];
