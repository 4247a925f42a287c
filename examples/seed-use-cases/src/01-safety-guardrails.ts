// Seed use case 1, safety guardrails: block destructive tools, warn on sensitive ones (plus the seed's
// advanced "junior_agent" and "sensitive task" conditions).
// The seed compares exact names, so "Delete File", "deleteFile" or "dеlete_file" with a Cyrillic "е" would
// slip past its list; it prints why it blocked but the agent only learns "blocked"; and a tool flagged
// destructive but missing from the list runs. The pack matches names normalised (look-alike letters
// folded), matches tags and the destructive flag, and tells the agent why.
import { Agent, defineTool, Task, type ToolCallHookContext, ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";

export interface SafetyGuardrailsSummary {
  /** One entry per call: what was called, by whom, and how it ended. */
  readonly calls: readonly { label: string; status: string; reason?: string }[];
  /** What the warn list reported. */
  readonly warnings: readonly string[];
  /** The tools that really ran. */
  readonly ran: readonly string[];
}

export async function main(log: (line: string) => void = console.log): Promise<SafetyGuardrailsSummary> {
  const ran: string[] = [];
  const tool = (name: string, extra: { destructive?: boolean; tags?: string[] } = {}) =>
    defineTool({
      name,
      ...extra,
      execute: () => {
        ran.push(name);
        return `${name} done`;
      },
    });

  const warnings: string[] = [];
  const hooks = new ToolHooks();
  hooks.use(
    guardrails({
      // The seed's destructive list, plus anything tagged or flagged destructive.
      deny: ["delete_file", "drop_table", "remove_user", "system_shutdown", { tag: "destructive" }],
      // The seed's sensitive list: these run, but are reported.
      warn: ["send_email", "post_to_social_media", "charge_payment"],
      // Advanced patterns, conditional execution: per role and per task.
      byRole: { junior_agent: { deny: ["delete_file", "send_email"] } },
      rules: [
        {
          name: "sensitive-task",
          when: (ctx: ToolCallHookContext) => ctx.task?.description.toLowerCase().includes("sensitive") ?? false,
          deny: ["web_search"],
        },
      ],
      onWarn: (w) => {
        warnings.push(w.message);
        log(`⚠️  ${w.message}`);
      },
    }),
  );

  const junior = new Agent({ role: "junior_agent" });
  const senior = new Agent({ role: "senior_agent" });
  const sensitive = new Task({ description: "Review the Sensitive acquisition memo" });
  const routine = new Task({ description: "Summarise this week's tickets" });

  const plan = [
    { label: "drop_table", tool: tool("drop_table") },
    { label: "Delete File (spelled differently)", tool: tool("Delete File") },
    { label: "systemShutdown (camelCase)", tool: tool("systemShutdown") },
    { label: "dеlete_file (Cyrillic е)", tool: tool("dеlete_file") },
    { label: "purge_cache (flagged destructive)", tool: tool("purge_cache", { destructive: true }) },
    { label: "read_file", tool: tool("read_file") },
    { label: "send_email by senior_agent", tool: tool("send_email"), agent: senior },
    { label: "send_email by junior_agent", tool: tool("send_email"), agent: junior },
    { label: "charge_payment", tool: tool("charge_payment") },
    { label: "web_search on a sensitive task", tool: tool("web_search"), task: sensitive },
    { label: "web_search on a routine task", tool: tool("web_search"), task: routine },
  ];

  const calls: { label: string; status: string; reason?: string }[] = [];
  for (const { label, tool: t, agent, task } of plan) {
    const outcome = await hooks.invoke(t, {}, { agent, task });
    if (outcome.status === "blocked") {
      log(`🛑 ${label}: ${outcome.result}`);
      calls.push({ label, status: outcome.status, reason: outcome.reason });
    } else {
      log(`✅ ${label}: ${outcome.result}`);
      calls.push({ label, status: outcome.status });
    }
  }
  return { calls, warnings, ran };
}
