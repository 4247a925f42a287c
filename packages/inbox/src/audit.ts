import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from "node:fs";
import { digestArguments } from "@toolware/core";
import type { AuditRecord, AuditSink, AuditVerification } from "./contract.js";
import { invalidOption } from "./errors.js";

const GENESIS = `sha256:${"0".repeat(64)}`;

// The hash covers every field but itself, in core's canonical JSON: key order or spacing in the file cannot hide an edit.
function hashOf(record: Omit<AuditRecord, "hash">): string {
  return digestArguments({
    seq: record.seq,
    at: record.at,
    type: record.type,
    actor: record.actor,
    data: record.data,
    prev: record.prev,
  });
}

function lastOf(path: string): { seq: number; hash: string } {
  if (!existsSync(path)) return { seq: 0, hash: GENESIS };
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const last = lines.at(-1);
  if (last === undefined) return { seq: 0, hash: GENESIS };
  const record = JSON.parse(last) as AuditRecord;
  return { seq: record.seq, hash: record.hash };
}

/**
 * An append-only audit file: one JSON record a line, each carrying the hash of the line before,
 * written and synced before the call goes on. One process writes one file.
 *
 * @example
 * ```ts
 * const inbox = createInbox({ store, signer, audit: fileAuditLog("audit.jsonl") });
 * ```
 */
export function fileAuditLog(path: string): AuditSink {
  if (typeof path !== "string" || path === "") throw invalidOption("fileAuditLog(path) needs a file path");
  let { seq, hash } = lastOf(path);
  const fd = openSync(path, "a", 0o600);
  let open = true;
  return {
    async append(entry) {
      if (!open) throw invalidOption("the audit log is closed");
      const base = { seq: seq + 1, at: entry.at, type: entry.type, actor: entry.actor, data: entry.data, prev: hash };
      const record: AuditRecord = { ...base, hash: hashOf(base) };
      // Synchronous, so records from concurrent calls never interleave and the chain stays in order.
      writeSync(fd, `${JSON.stringify(record)}\n`);
      fsyncSync(fd);
      seq = record.seq;
      hash = record.hash;
      return record;
    },
    async close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/**
 * Checks an audit file's chain: every line parses, numbers follow each other, names the hash of
 * the line before, and hashes to what it says. A removed, inserted, reordered or edited line is
 * found, with its line number. (`toolware audit verify FILE` prints this.)
 *
 * @example
 * ```ts
 * const result = verifyAuditChain("audit.jsonl");
 * if (!result.ok) console.error(`line ${result.line}: ${result.problem}`);
 * ```
 */
export function verifyAuditChain(path: string): AuditVerification {
  const text = readFileSync(path, "utf8");
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let prev = GENESIS;
  const broken = (line: number, problem: string): AuditVerification => ({
    ok: false,
    records: line - 1,
    line,
    problem,
  });
  for (let i = 0; i < lines.length; i++) {
    let record: AuditRecord;
    try {
      record = JSON.parse(lines[i] as string) as AuditRecord;
    } catch {
      return broken(i + 1, "the line is not JSON");
    }
    if (record === null || typeof record !== "object") return broken(i + 1, "the line is not a record");
    if (record.seq !== i + 1)
      return broken(
        i + 1,
        `expected record ${i + 1}, found ${JSON.stringify(record.seq)} (a line was removed or moved)`,
      );
    if (record.prev !== prev)
      return broken(i + 1, "it does not name the hash of the line before (a line was removed, moved or edited)");
    let hash: string;
    try {
      hash = hashOf(record);
    } catch {
      return broken(i + 1, "the record cannot be hashed");
    }
    if (record.hash !== hash) return broken(i + 1, "its hash does not match its content (the line was edited)");
    prev = hash;
  }
  return { ok: true, records: lines.length, line: undefined, problem: undefined };
}
