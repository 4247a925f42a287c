// Seed use case 8, debug logging: tool, agent, task and input before the call, a result preview after it.
// The pack writes through any logger with info/warn/error (console, pino, winston; here one that forwards to
// `log`), reports blocks and failures too, times each call, and can redact secrets before anything is written.
import { Agent, defineTool, Task, ToolHooks } from "@toolware/core";
import { type DebugLogger, debugLog } from "@toolware/packs/debug-log";

export interface DebugLoggingSummary {
  /** How many lines were written at each level. */
  readonly levels: Readonly<Record<"info" | "warn" | "error", number>>;
  /** Every line written, with its level. */
  readonly lines: readonly string[];
}

export async function main(log: (line: string) => void = console.log): Promise<DebugLoggingSummary> {
  let clock = 0;
  const fetchPage = defineTool({
    name: "fetch_page",
    execute: ({ url }: { url: string; apiKey?: string }) => {
      clock += 42;
      if (url.includes("404")) throw new Error(`GET ${url} returned 404`);
      return `<html><body>${"Lorem ipsum dolor sit amet. ".repeat(20)}</body></html>`;
    },
  });
  const deleteFile = defineTool({ name: "delete_file", execute: () => "deleted" });

  const levels = { info: 0, warn: 0, error: 0 };
  const lines: string[] = [];
  const write = (level: keyof typeof levels) => (first: unknown, message?: string) => {
    levels[level]++;
    const line = `[${level}] ${typeof first === "string" ? first : message}`;
    lines.push(line);
    log(line);
  };
  const logger: DebugLogger = { info: write("info"), warn: write("warn"), error: write("error") };

  const hooks = new ToolHooks();
  hooks.use(
    debugLog({
      logger,
      now: () => clock,
      maxPreview: { input: 120, result: 60, task: 50 }, // the seed's 50-character task preview
      // Keys never reach the log, not even half of one at a preview's edge.
      redact: (text) => text.replaceAll(/sk-[A-Za-z0-9]+/g, "[REDACTED]"),
    }),
  );
  hooks.before((ctx) => ctx.toolName !== "delete_file" || ctx.block("destructive tools are disabled"));

  const researcher = new Agent({ role: "researcher" });
  const task = new Task({ description: "Collect the pricing pages of the three main competitors for the report" });
  await hooks.invoke(
    fetchPage,
    { url: "https://example.com/pricing", apiKey: "sk-live0123456789" },
    { agent: researcher, task },
  );
  await hooks.invoke(fetchPage, { url: "https://example.com/404" }, { agent: researcher });
  await hooks.invoke(deleteFile, { path: "report.md" });
  return { levels, lines };
}
