import { parseArgs } from "node:util";
import { messageOf, ToolwareTypeError, toolwareCode } from "@toolware/core";
import { formatAuditSummary } from "./format.js";
import { readAuditTrail, summarizeAudit } from "./reader.js";

/** Where the command writes. */
export interface CliOutput {
  out(text: string): void;
  err(text: string): void;
}

const USAGE = `usage: toolware audit <file> [--json] [--top N] [--no-rotated]

  Summarises an audit trail written by @toolware/packs/audit: calls by tool and status, block reasons,
  the slowest calls. Reads <file> and the files it rotated to (<file>.1, <file>.2, …) unless --no-rotated.
  --json        print the summary as JSON
  --top N       how many of the slowest calls to list (default 5)
`;

/**
 * The `toolware` command (`bin/toolware.js` of @toolware/packs). Returns the exit code: 0 done, 1 the trail could
 * not be read, 2 a usage error.
 *
 * @example
 * ```ts
 * process.exitCode = runToolwareCli(["audit", "logs/audit.jsonl"], { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
 * ```
 */
export function runToolwareCli(argv: readonly string[], io: CliOutput): number {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h" || command === "help") {
    io.out(USAGE);
    return 0;
  }
  if (command !== "audit") {
    io.err(`toolware: unknown command ${command === undefined ? "(none)" : JSON.stringify(command)}\n${USAGE}`);
    return 2;
  }
  let parsed: ReturnType<typeof parseAudit>;
  try {
    parsed = parseAudit(rest);
  } catch (error) {
    io.err(`${messageOf(error)}\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    io.out(USAGE);
    return 0;
  }
  try {
    const summary = summarizeAudit(readAuditTrail(parsed.file, { rotated: parsed.rotated }), { top: parsed.top });
    io.out(parsed.json ? `${JSON.stringify(summary, null, 2)}\n` : formatAuditSummary(summary));
    return 0;
  } catch (error) {
    if (toolwareCode(error) === undefined) throw error;
    io.err(`${messageOf(error)}\n`);
    return 1;
  }
}

function parseAudit(args: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: {
      json: { type: "boolean", default: false },
      top: { type: "string" },
      "no-rotated": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return { help: true, file: "", json: false, top: 5, rotated: true };
  if (positionals.length !== 1) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `expected one file, got ${positionals.length}`);
  }
  const top = values.top === undefined ? 5 : Number(values.top);
  if (!Number.isInteger(top) || top < 0) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `--top takes a whole number, got ${values.top}`);
  }
  return { help: false, file: positionals[0] as string, json: values.json, top, rotated: !values["no-rotated"] };
}
