// Seed "tool chain monitoring": record every call and warn when the same tool is called 5 times in a row,
// a sign of an agent stuck in a loop. The seed keeps one global list that grows forever; the loop guard
// tracks each agent apart (or each crew, or everything), keeps a bounded history, can also count calls
// within a time window, and can block the looping call with a message that tells the agent to change course.
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { type LoopEvent, type LoopHistoryEntry, loopGuard } from "@toolware/packs/loop-guard";

export interface ToolChainSummary {
  /** Warnings of the seed-style monitor (warn at 5 in a row, per agent). */
  readonly warnings: readonly string[];
  /** Statuses of the stuck agent's calls under the blocking guard. */
  readonly blockingRun: readonly string[];
  /** What the stuck agent read when blocked. */
  readonly blockMessage: string;
  /** The researcher's recorded chain, as the seed's tool_call_chain would show it. */
  readonly chain: readonly LoopHistoryEntry[];
}

export async function main(log: (line: string) => void = console.log): Promise<ToolChainSummary> {
  let clock = 0;
  const search = defineTool({ name: "web_search", execute: ({ query }: { query: string }) => `results for ${query}` });
  const read = defineTool({ name: "read_file", execute: ({ path }: { path: string }) => `contents of ${path}` });
  const researcher = new Agent({ role: "researcher" });
  const writer = new Agent({ role: "writer" });

  // 1. The seed's monitor: warn (not block) on the 5th identical tool in a row, per agent.
  const warnings: string[] = [];
  const monitor = loopGuard({
    maxRepeats: 5,
    now: () => clock,
    onWarn: (e: LoopEvent) => {
      warnings.push(e.message);
      log(`⚠️  Warning: ${e.message}`);
    },
  });
  const hooks = new ToolHooks();
  hooks.use(monitor);
  for (let i = 1; i <= 6; i++) {
    clock += 1_000;
    await hooks.invoke(search, { query: `attempt ${i}` }, { agent: researcher });
    // The writer's calls in between do not break (or add to) the researcher's streak.
    await hooks.invoke(search, { query: `draft ${i}` }, { agent: writer });
    if (i === 3) await hooks.invoke(read, { path: "notes.md" }, { agent: writer });
  }
  const chain = monitor.history(researcher);
  log(`researcher's chain: ${chain.map((c) => `${c.toolName}@${c.at / 1000}s`).join(" → ")}`);

  // 2. A stricter guard: the same search with the same input 3 times in a row, or 4 times within a minute, is blocked.
  const strict = new ToolHooks();
  strict.use(
    loopGuard({
      maxRepeats: 3,
      maxInWindow: 4,
      windowMs: "1m",
      sameInput: true,
      action: "block",
      now: () => clock,
      onWarn: (e) => log(`⛔ ${e.kind}: ${e.message}`),
    }),
  );
  const stuck = new Agent({ role: "stuck_agent" });
  const blockingRun: string[] = [];
  let blockMessage = "";
  const ask = () => strict.invoke(search, { query: "same question" }, { agent: stuck });
  const steps = [
    ask,
    ask,
    ask, // 3rd in a row: blocked
    () => strict.invoke(read, { path: "notes.md" }, { agent: stuck }), // breaks the streak
    ask, // allowed again: the 3rd of this input within the minute
    ask, // the 4th within the minute: blocked by the window
  ];
  for (const step of steps) {
    clock += 5_000;
    const outcome = await step();
    blockingRun.push(outcome.status);
    if (outcome.status === "blocked" && blockMessage === "") blockMessage = outcome.result;
  }
  log(`stuck agent: ${blockingRun.join(", ")}`);
  return { warnings, blockingRun, blockMessage, chain };
}
