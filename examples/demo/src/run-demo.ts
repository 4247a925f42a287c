import { createColors } from "picocolors";
import { runAiSdkCrew } from "./ai-sdk-crew.js";
import type { AiSdkModel } from "./ai-sdk-model.js";
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
 * call, then per-tool statistics and the hook decisions. With `aiSdk`, the same crew runs in the
 * AI SDK's own loop (`--ai-sdk`), its tools guarded by the same stack.
 */
export async function runDemo(options: { interactive: boolean; out: Output; aiSdk?: AiSdkModel }): Promise<DemoResult> {
  const { out } = options;
  const c = createColors(out.color);
  const stack = buildStack({
    interactive: options.interactive,
    onHumanAnswer: (prompt, answer) =>
      out.write(
        `${c.blue(`  🙋 ${prompt.split("\n")[0]} → ${JSON.stringify(answer)}`)}${options.interactive ? "" : c.dim(" (scripted)")}\n`,
      ),
  });
  const aiSdk = options.aiSdk;
  out.write(
    aiSdk === undefined
      ? `${c.bold("toolware demo")} ${c.dim("— a scripted crew; every tool call runs through one hook stack")}\n`
      : `${c.bold("toolware demo")} — ${aiSdk.scripted ? c.yellow(aiSdk.banner) : c.green(aiSdk.banner)}\n` +
          c.dim("every tool call runs through one hook stack, inside the AI SDK's generateText loop\n"),
  );
  out.write(c.dim(`stack: ${stack.describe()}\n`));
  out.write(
    c.dim(
      options.interactive
        ? "approvals: you answer at the prompt\n\n"
        : "approvals: a scripted human answers (run with --interactive to answer yourself)\n\n",
    ),
  );

  let task = "";
  const onCall = (report: CallReport) => {
    if (report.task !== task) {
      task = report.task;
      out.write(`\n${c.bold(c.underline(`${report.agent}: ${task}`))}\n`);
    }
    out.write(renderCall(report, stack.warnings.get(report.outcome.callId) ?? [], out));
  };
  const reports =
    aiSdk === undefined
      ? await runCrew(crew, stack.hooks, scriptedModel, onCall)
      : await runAiSdkCrew(crew, stack.hooks, aiSdk, onCall);

  out.write(`\n${c.bold("Per-tool statistics")}\n${renderToolStats(stack.stats(), out)}\n`);
  out.write(`\n${c.bold("Hook decisions")}\n${renderHookDecisions(reports, out)}\n`);
  const blocked = reports.filter((r) => r.outcome.status === "blocked").length;
  out.write(
    `\n${reports.length} tool calls, ${blocked} blocked. The stack lives in examples/demo/src/stack.ts — copy it.\n`,
  );
  return { reports, warnings: stack.warnings };
}
