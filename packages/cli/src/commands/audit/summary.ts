import { relative, resolve } from "node:path";
import { ToolwareError } from "@toolware/core";
import { type AuditFileReport, formatAuditSummary, readAuditTrail, summarizeAudit } from "@toolware/packs/audit";
import { defineCommand, EXIT, wholeNumber } from "../kit.js";

// Why a file of the trail counts for nothing: the reader skips what is not a record, so the user must hear of it.
function noRecord(report: AuditFileReport, cwd: string): string {
  const rel = relative(cwd, report.file);
  const name = rel === "" || rel.startsWith("..") ? report.file : rel;
  const lines = report.invalidLines.length;
  if (lines === 0) return `audit: ${name} is empty: it holds no audit record`;
  const read = lines === 1 ? "its only line is not" : `none of its ${lines} lines is`;
  return `audit: ${name} holds no audit record (${read} a record written by @toolware/packs/audit)`;
}

/** `toolware audit <file>`: the summary of an audit trail (what `toolware audit` runs when no command is named). */
export const summary = defineCommand({
  name: "audit",
  summary: "summarise an audit trail written by @toolware/packs/audit",
  description: [
    "Summarises an audit trail written by @toolware/packs/audit: calls by tool and status, block reasons, the",
    "slowest calls. Reads <file> and the files it rotated to (<file>.1, <file>.2, …) unless --no-rotated.",
  ].join("\n"),
  args: ["file"],
  options: {
    json: { type: "boolean", description: "print the summary as JSON" },
    top: {
      type: "string",
      value: "N",
      description: "how many of the slowest calls to list, a whole number (default 5)",
    },
    "no-rotated": { type: "boolean", description: "read <file> alone, not the files it rotated to" },
  },
  failure: "the trail cannot be read, or a file of it holds no audit record",
  run({ positionals, options }, io) {
    const top = options.top === undefined ? 5 : wholeNumber("top", options.top);
    const file = resolve(io.cwd, positionals[0] as string);
    const summary = summarizeAudit(readAuditTrail(file, { rotated: !options["no-rotated"] }), { top });
    const empty = summary.files.filter((f) => f.records === 0);
    if (empty.length === summary.files.length) {
      throw new ToolwareError("TOOLWARE_AUDIT_EMPTY", empty.map((f) => noRecord(f, io.cwd)).join("\ntoolware: "));
    }
    io.out(options.json ? `${JSON.stringify(summary, null, 2)}\n` : formatAuditSummary(summary, io.cwd));
    // The rest of the trail is summarised, but a file that held nothing readable fails the run all the same.
    for (const f of empty) io.err(`toolware: ${noRecord(f, io.cwd)}\n`);
    return empty.length === 0 ? EXIT.ok : EXIT.failure;
  },
});
