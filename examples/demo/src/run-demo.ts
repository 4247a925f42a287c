import { createColors } from "picocolors";
import { type CallReport, runCrew } from "./loop.js";
import { type Output, renderCall, renderHookDecisions, renderToolStats } from "./render.js";
import { crew, scriptedModel } from "./script.js";
import { buildStack } from "./stack.js";

/** What the demo did, for tests and for anyone embedding it. */
export interface DemoResult {
  reports: CallReport[];
  warnings: Map<string, string[]>;
}

/**
 * Runs the scripted crew through the hook stack and prints a line per tool
 * call, then per-tool statistics and the hook decisions.
 */
export async function runDemo(options: { interactive: boolean; out: Output }): Promise<DemoResult> {
  const { out } = options;
  const c = createColors(out.color);
  const stack = buildStack({
    interactive: options.interactive,
    onHumanAnswer: (prompt, answer) =>
      out.write(
        `${c.blue(`  🙋 ${prompt.split("\n")[0]} → ${JSON.stringify(answer)}`)}${options.interactive ? "" : c.dim(" (scripted)")}\n`,
      ),
  });
  out.write(`${c.bold("toolware demo")} ${c.dim("— a scripted crew; every tool call runs through one hook stack")}\n`);
  out.write(c.dim(`stack: ${stack.describe()}\n`));
  out.write(
    c.dim(
      options.interactive
        ? "approvals: you answer at the prompt\n\n"
        : "approvals: a scripted human answers (run with --interactive to answer yourself)\n\n",
    ),
  );

  let task = "";
  const reports = await runCrew(crew, stack.hooks, scriptedModel, (report) => {
    if (report.task !== task) {
      task = report.task;
      out.write(`\n${c.bold(c.underline(`${report.agent}: ${task}`))}\n`);
    }
    out.write(renderCall(report, stack.warnings.get(report.outcome.callId) ?? [], out));
  });

  out.write(`\n${c.bold("Per-tool statistics")}\n${renderToolStats(stack.stats(), out)}\n`);
  out.write(`\n${c.bold("Hook decisions")}\n${renderHookDecisions(reports, out)}\n`);
  const blocked = reports.filter((r) => r.outcome.status === "blocked").length;
  out.write(
    `\n${reports.length} tool calls, ${blocked} blocked. The stack lives in examples/demo/src/stack.ts — copy it.\n`,
  );
  return { reports, warnings: stack.warnings };
}
