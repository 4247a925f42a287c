// Seed, advanced patterns: conditional hook execution.
// CrewAI writes one before-hook full of `if`s. Here each rule is its own hook, and the conditions are
// combinators: role and tool filters are decided once per chain by the core (free per call); only the
// task check is a per-call predicate, and it only runs in web_search chains.
import { Agent, defineTool, Task, type ToolCallHookContext, ToolHooks } from "@toolware/core";
import { forAgents, when } from "@toolware/packs/conditional";

export interface ConditionalSummary {
  /** One line per call: `tool by role during "task" -> status`. */
  readonly calls: readonly { tool: string; agent: string; task: string; status: string; reason?: string }[];
  readonly blocked: number;
  /** How many hooks each call's chain holds (static filters keep the others out). */
  readonly chainSizes: Record<string, number>;
}

export async function main(log: (line: string) => void = console.log): Promise<ConditionalSummary> {
  const tool = (name: string) => defineTool({ name, execute: () => `${name} done` });
  const deleteFile = tool("delete_file");
  const sendEmail = tool("send_email");
  const webSearch = tool("web_search");
  const readFile = tool("read_file");

  const junior = new Agent({ role: "junior_agent" });
  const analyst = new Agent({ role: "analyst" });
  const sensitive = new Task({ description: "Review the Sensitive acquisition memo" });
  const routine = new Task({ description: "Summarise this week's tickets" });

  const hooks = new ToolHooks();

  // "Only block for specific agents": junior agents may not delete files or send e-mails.
  hooks.use(
    forAgents("junior_agent")
      .forTools(["delete_file", "send_email"])
      .before(function juniorRestrictions(ctx) {
        log(`  ❌ Junior agents cannot use ${ctx.toolName}`);
        ctx.block(`junior agents cannot use ${ctx.toolName}`);
      }),
  );

  // "Only block during specific tasks": no web search while working on something sensitive.
  const sensitiveTask = (ctx: ToolCallHookContext) =>
    ctx.task?.description.toLowerCase().includes("sensitive") ?? false;
  hooks.use(
    when(sensitiveTask)
      .forTools("web_search")
      .before(function noSearchOnSensitiveTasks(ctx) {
        log("  ❌ Web search blocked for sensitive tasks");
        ctx.block("web search is not allowed during sensitive tasks");
      }),
  );

  const plan = [
    { tool: deleteFile, agent: junior, task: routine },
    { tool: sendEmail, agent: junior, task: routine },
    { tool: readFile, agent: junior, task: routine },
    { tool: deleteFile, agent: analyst, task: routine },
    { tool: webSearch, agent: analyst, task: sensitive },
    { tool: webSearch, agent: analyst, task: routine },
    { tool: webSearch, agent: junior, task: sensitive },
  ];
  const calls: ConditionalSummary["calls"][number][] = [];
  for (const { tool: t, agent, task } of plan) {
    log(`${agent.role} calls ${t.name} during "${task.description}"`);
    const outcome = await hooks.invoke(t, {}, { agent, task });
    log(`  -> ${outcome.status}${outcome.reason === undefined ? "" : ` (${outcome.reason})`}`);
    calls.push({
      tool: t.name,
      agent: agent.role,
      task: task.description,
      status: outcome.status,
      reason: outcome.reason,
    });
  }

  const chainSizes: Record<string, number> = {};
  for (const [name, agent] of [
    ["delete_file", junior],
    ["delete_file", analyst],
    ["web_search", analyst],
    ["read_file", junior],
  ] as const) {
    chainSizes[`${name}@${agent.role}`] = hooks.explain({ toolName: name, agent }).length;
  }
  log(`hooks per chain: ${JSON.stringify(chainSizes)}`);
  const blocked = calls.filter((c) => c.status === "blocked").length;
  log(`${blocked} of ${calls.length} calls blocked`);
  return { calls, blocked, chainSizes };
}
