import { readFileSync, statSync } from "node:fs";
import { relative, resolve } from "node:path";
import { ToolwareError } from "@toolware/core";
import { type AuditVerification, verifyAuditChain } from "@toolware/inbox";
import { defineCommand, EXIT, usageError } from "../kit.js";

const HASH = /^sha256:[0-9a-f]{64}$/;

function shownName(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel === "" || rel.startsWith("..") ? file : rel;
}

// verifyAuditChain reads the file itself; a missing or unreadable file must be a failure (exit 1), not a bug (3).
function readable(file: string): void {
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
    const why = missing ? `no audit file at ${file}` : `cannot read ${file}: ${(error as Error).message}`;
    throw new ToolwareError("TOOLWARE_AUDIT_UNREADABLE", `audit verify: ${why}`, { cause: error });
  }
  if (!isFile) throw new ToolwareError("TOOLWARE_AUDIT_UNREADABLE", `audit verify: ${file} is not a file`);
}

function verify(file: string): AuditVerification {
  try {
    return verifyAuditChain(file);
  } catch (error) {
    throw new ToolwareError("TOOLWARE_AUDIT_UNREADABLE", `audit verify: cannot read ${file}: ${String(error)}`, {
      cause: error,
    });
  }
}

// The chain was checked line by line: the last line is a record whose hash is its content's.
function lastHash(file: string): string {
  const lines = readFileSync(file, "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return (JSON.parse(lines.at(-1) as string) as { hash: string }).hash;
}

const plural = (n: number): string => `${n} record${n === 1 ? "" : "s"}`;

/** `toolware audit verify <file>`: checks the hash chain of an inbox decision log (`fileAuditLog`). */
export const verifyCommand = defineCommand({
  name: "verify",
  summary: "check the hash chain of an inbox decision log (fileAuditLog of @toolware/inbox)",
  description: [
    "Checks the hash chain of a decision log written by fileAuditLog() of @toolware/inbox (the --audit file of",
    "`toolware inbox`): every line parses, the records are numbered 1, 2, 3, … and each names the hash of the line",
    "before and hashes to what it says. Prints OK with the number of records and the last record's hash, or the",
    "first line where the chain breaks and why (a line removed, edited, moved or inserted). Lines cut off the end",
    "leave a shorter chain that is still whole: keep the last hash elsewhere and pass it as --expect-last.",
  ].join("\n"),
  args: ["file"],
  options: {
    json: { type: "boolean", description: "print the result as JSON { ok, records, line, problem, lastHash }" },
    "expect-last": {
      type: "string",
      value: "HASH",
      description: "fail unless the last record's hash is HASH (sha256:<64 hex>): finds lines cut off the end",
    },
    "allow-empty": { type: "boolean", description: "an empty file passes (0 records) instead of failing" },
  },
  failure: "the chain is broken, the file is empty, or it cannot be read",
  run({ positionals, options }, io) {
    const expected = options["expect-last"];
    if (expected !== undefined && !HASH.test(expected)) {
      throw usageError(`--expect-last takes a hash sha256:<64 hex digits>, got ${JSON.stringify(expected)}`);
    }
    const file = resolve(io.cwd, positionals[0] as string);
    const name = shownName(file, io.cwd);
    readable(file);
    const result = verify(file);
    const last = result.ok && result.records > 0 ? lastHash(file) : undefined;
    let problem = result.ok ? undefined : `${name}:${result.line}: the hash chain breaks: ${result.problem}`;
    let code: `TOOLWARE_${string}` = "TOOLWARE_AUDIT_CHAIN_BROKEN";
    if (problem === undefined && result.records === 0 && !options["allow-empty"]) {
      problem = `${name} is empty: it holds no record to verify (--allow-empty lets it pass)`;
      code = "TOOLWARE_AUDIT_EMPTY";
    } else if (problem === undefined && expected !== undefined && last !== expected) {
      const found = last === undefined ? "there is no record" : `the last record's hash is ${last}`;
      problem = `${name}: ${found}, not ${expected}: records were cut off the end, or others appended`;
    }
    if (options.json) {
      const report = {
        ok: problem === undefined,
        records: result.records,
        line: result.line ?? null,
        problem: problem ?? null,
        lastHash: last ?? null,
      };
      io.out(`${JSON.stringify(report, null, 2)}\n`);
      return problem === undefined ? EXIT.ok : EXIT.failure;
    }
    if (problem !== undefined) {
      const intact = result.ok ? "" : `; the ${plural(result.records)} before it are intact`;
      throw new ToolwareError(code, `audit verify: ${problem}${intact}`);
    }
    io.out(
      `${name}: OK: ${plural(result.records)}, the hash chain is intact${last === undefined ? "" : `; last hash ${last}`}\n`,
    );
    return EXIT.ok;
  },
});
