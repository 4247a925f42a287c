import type { ToolCallOutcome, TraceEntry } from "@toolware/core";
import type { AnalyticsSnapshot } from "@toolware/packs/analytics";
import { createColors } from "picocolors";
import type { CallReport } from "./loop.js";

/** Where the demo writes, and whether it may use colour. */
export interface Output {
  write(text: string): void;
  color: boolean;
}

/** Colour only on a terminal, never when NO_COLOR is set (https://no-color.org). */
export function terminalOutput(stream: NodeJS.WriteStream = process.stdout): Output {
  const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "";
  return { write: (text) => stream.write(text), color: stream.isTTY === true && !noColor };
}

/** How the demo labels a finished call. */
export type Decision = "ok" | "cached" | "redacted" | "blocked" | "error";

export function decisionOf(outcome: ToolCallOutcome): Decision {
  if (outcome.status !== "ok") return outcome.status;
  if (outcome.trace.some((t) => t.action === "substituted")) return "cached";
  if (outcome.trace.some((t) => t.action === "modified-result" && t.hook.startsWith("redact"))) return "redacted";
  return "ok";
}

/** The hook that decided a blocked call (the innermost one that blocked or failed). */
export function decidedBy(trace: readonly TraceEntry[]): string | undefined {
  return trace.find((t) => t.action === "blocked" || t.action === "failed")?.hook;
}

const pad = (text: string, width: number) => text + " ".repeat(Math.max(0, width - [...text].length));
const clip = (text: string, width: number) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
};

export function renderCall(report: CallReport, warnings: readonly string[], out: Output): string {
  const c = createColors(out.color);
  const decision = decisionOf(report.outcome);
  const badge = {
    ok: c.green("✔ ok      "),
    cached: c.cyan("⚡ cached  "),
    redacted: c.magenta("✎ redacted"),
    blocked: c.red("✖ blocked "),
    error: c.yellow("! error   "),
  }[decision];
  const who = c.bold(pad(report.agent, 13));
  const tool = pad(report.outcome.toolName, 14);
  const ms = c.dim(pad(`${report.durationMs.toFixed(1)} ms`, 9));
  const detail =
    decision === "blocked"
      ? c.red(clip(`${report.outcome.reason ?? "blocked"} [${decidedBy(report.outcome.trace) ?? "?"}]`, 70))
      : c.dim(clip(report.outcome.result, 70));
  const lines = [`${badge} ${who} ${tool} ${ms} ${detail}`];
  for (const w of warnings) lines.push(`           ${c.yellow(`⚠ ${clip(w, 90)}`)}`);
  return `${lines.join("\n")}\n`;
}

function table(headers: string[], rows: string[][], out: Output): string {
  const c = createColors(out.color);
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => [...(r[i] ?? "")].length)));
  const line = (cells: string[]) => cells.map((cell, i) => pad(cell, widths[i] ?? 0)).join("  ");
  return [c.bold(line(headers)), c.dim(widths.map((w) => "─".repeat(w)).join("  ")), ...rows.map(line)].join("\n");
}

export function renderToolStats(stats: AnalyticsSnapshot, out: Output): string {
  const rows = Object.entries(stats.tools).map(([tool, s]) => [
    tool,
    String(s.count),
    String(s.ok - s.substituted),
    String(s.substituted),
    String(s.blocked),
    String(s.failures),
    s.duration === null ? "-" : s.duration.p50Ms.toFixed(1),
  ]);
  return table(["tool", "calls", "ran", "cached", "blocked", "errors", "p50 ms"], rows, out);
}

export function renderHookDecisions(reports: readonly CallReport[], out: Output): string {
  const actions = ["blocked", "substituted", "modified-input", "modified-result", "failed"] as const;
  const byHook = new Map<string, Record<string, number>>();
  for (const r of reports) {
    for (const t of r.outcome.trace) {
      const counts = byHook.get(t.hook) ?? {};
      counts[t.action] = (counts[t.action] ?? 0) + 1;
      byHook.set(t.hook, counts);
    }
  }
  const rows = [...byHook.entries()]
    .filter(([, counts]) => actions.some((a) => counts[a]))
    .map(([hook, counts]) => [hook, ...actions.map((a) => String(counts[a] ?? 0))]);
  return table(["hook", "blocked", "substituted", "input changed", "result changed", "failed"], rows, out);
}
