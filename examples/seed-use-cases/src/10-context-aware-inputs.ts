// Seed, advanced patterns: context-aware input modification.
// Researchers' web searches are restricted to edu/gov/org domains, and e-mails sent during urgent tasks
// get a high priority. Each rule is a conditional before-hook that mutates ctx.toolInput in place.
import { Agent, defineTool, Task, type ToolCallHookContext, ToolHooks } from "@toolware/core";
import { forAgents, forTools, when } from "@toolware/packs/conditional";

export interface ContextAwareSummary {
  /** What each tool actually received, in call order. */
  readonly received: readonly { tool: string; agent: string; task: string; input: Record<string, unknown> }[];
  /** Per call, the hooks that changed the input. */
  readonly modifiedBy: readonly string[][];
}

export async function main(log: (line: string) => void = console.log): Promise<ContextAwareSummary> {
  const received: { tool: string; agent: string; task: string; input: Record<string, unknown> }[] = [];
  let current = { agent: "", task: "" };
  const tool = (name: string) =>
    defineTool({
      name,
      execute: (input: Record<string, unknown>) => {
        received.push({ tool: name, ...current, input: structuredClone(input) });
        return `${name} ok`;
      },
    });
  const webSearch = tool("web_search");
  const sendEmail = tool("send_email");

  const researcher = new Agent({ role: "researcher" });
  const writer = new Agent({ role: "writer" });
  const urgent = new Task({ description: "URGENT: notify customers about the outage" });
  const weekly = new Task({ description: "Draft the weekly newsletter" });

  const hooks = new ToolHooks();

  // Add context based on the agent's role: researchers only search trusted domains.
  hooks.use(
    forAgents("researcher")
      .forTools("web_search")
      .before(function restrictResearchDomains(ctx) {
        ctx.toolInput.domains = ["edu", "gov", "org"];
      }),
  );

  // Add context based on the task: e-mails of urgent tasks go out with high priority.
  const isUrgent = (ctx: ToolCallHookContext) => ctx.task?.description.toLowerCase().includes("urgent") ?? false;
  hooks.use(
    forTools(
      "send_email",
      when(isUrgent).before(function prioritiseUrgentEmail(ctx) {
        ctx.toolInput.priority = "high";
      }),
    ),
  );

  const plan = [
    { tool: webSearch, agent: researcher, task: weekly, input: { query: "transformer interpretability" } },
    { tool: webSearch, agent: writer, task: weekly, input: { query: "newsletter templates" } },
    { tool: sendEmail, agent: writer, task: urgent, input: { to: "customers@example.com", subject: "Outage" } },
    { tool: sendEmail, agent: writer, task: weekly, input: { to: "team@example.com", subject: "Weekly" } },
    { tool: webSearch, agent: researcher, task: urgent, input: { query: "status page best practices" } },
  ];
  const modifiedBy: string[][] = [];
  for (const { tool: t, agent, task, input } of plan) {
    current = { agent: agent.role, task: task.description };
    const outcome = await hooks.invoke(t, input, { agent, task });
    const changed = outcome.trace.filter((e) => e.action === "modified-input").map((e) => e.hook);
    modifiedBy.push(changed);
    const last = received[received.length - 1];
    log(`${agent.role} -> ${t.name} during "${task.description}": ${JSON.stringify(last?.input)}`);
    if (changed.length > 0) log(`  input changed by ${changed.join(", ")}`);
  }
  return { received, modifiedBy };
}
