// A child process makes calls through the audit pack and is SIGKILLed mid-run: what it reported as returned must
// all be on disk, every complete line must parse, and at most the calls in flight may have a line but no report.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { auditFiles, readAuditTrail } from "./index.js";

const root = fileURLToPath(new URL("../../../..", import.meta.url));
const child = fileURLToPath(new URL("./test-fixtures.ts", import.meta.url));
// tsx's loader inside this very process (its CLI would run the script in a grandchild that the kill would miss).
const loader = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;
const dir = mkdtempSync(join(tmpdir(), "toolware-audit-crash-"));
const started: ChildProcess[] = [];
afterAll(() => {
  // A test that failed before its kill must not leave its child writing.
  for (const proc of started) if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  /** Call ids the child reported as returned, in order. */
  readonly returned: string[];
  readonly file: string;
}

function start(file: string, args: string[]) {
  const proc = spawn(process.execPath, ["--import", loader, "--conditions", "@toolware/source", child, file, ...args], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(proc);
  const returned: string[] = [];
  let partial = "";
  let stderr = "";
  const waiters: { done: () => boolean; resolve: () => void }[] = [];
  proc.stderr?.on("data", (chunk: Buffer) => {
    stderr += String(chunk);
  });
  proc.stdout?.on("data", (chunk: Buffer) => {
    const parts = (partial + String(chunk)).split("\n");
    partial = parts.pop() ?? "";
    returned.push(...parts);
    for (const w of waiters.filter((w) => w.done())) w.resolve();
  });
  const until = (done: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      if (done()) return resolve();
      waiters.push({ done, resolve });
      proc.once("exit", (code) =>
        reject(new Error(`child exited (${code}) after ${returned.length} lines: ${stderr}`)),
      );
    });
  return { proc: proc as ChildProcess, returned, until };
}

// Resolves once the pipes are closed too: reports the child wrote before it died are all read by then.
function kill(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    proc.once("close", () => resolve());
    proc.kill("SIGKILL");
  });
}

async function crashRun(name: string, durability: string, workers: number, killAfter: number): Promise<Run> {
  const file = join(dir, `${name}.jsonl`);
  const { proc, returned, until } = start(file, [durability, String(workers)]);
  await until(() => returned.length >= killAfter);
  await kill(proc);
  return { returned: [...returned], file };
}

function checkTrail({ returned, file }: Run, inFlight: number): void {
  const trail = readAuditTrail(file);
  // Only the last line of the last file may be torn; every other line of every file parses.
  for (const [i, f] of trail.files.entries()) {
    const last = i === trail.files.length - 1;
    if (!last) expect(f.tornTail).toBe(false);
    expect(f.invalidLines.length).toBe(f.tornTail ? 1 : 0);
  }
  for (const f of auditFiles(file).slice(0, -1)) expect(readFileSync(f, "utf8").endsWith("\n")).toBe(true);
  const onDisk = trail.records.map((r) => r.callId);
  expect(new Set(onDisk).size).toBe(onDisk.length);
  // Nothing returned is lost...
  const missing = returned.filter((id) => !onDisk.includes(id));
  expect(missing).toEqual([]);
  // ...and the lines beyond the reports are the calls the kill caught between their write and their report.
  expect(onDisk.length - returned.length).toBeGreaterThanOrEqual(0);
  expect(onDisk.length - returned.length).toBeLessThanOrEqual(inFlight);
  expect(trail.records.filter((r) => r.status === "blocked").every((r) => r.reason === "sevens are not stored")).toBe(
    true,
  );
}

describe("audit survives SIGKILL", () => {
  it("with fsync, one call at a time: every returned call is on disk, and at most the one being written is extra", async () => {
    const run = await crashRun("fsync-serial", "fsync", 1, 120);
    expect(run.returned.length).toBeGreaterThanOrEqual(120);
    checkTrail(run, 1);
  }, 60_000);

  it("with plain writes and 8 calls in flight, across rotations", async () => {
    const run = await crashRun("write-concurrent", "write", 8, 400);
    expect(auditFiles(run.file).length).toBeGreaterThan(1);
    checkTrail(run, 8);
  }, 60_000);

  it("killed while idle, the count of lines equals the count of returned outcomes exactly", async () => {
    const file = join(dir, "idle.jsonl");
    const { proc, returned, until } = start(file, ["fsync", "3", "90"]);
    await until(() => returned.at(-1) === "idle");
    expect(returned.length).toBeGreaterThan(90);
    await kill(proc);
    const trail = readAuditTrail(file);
    expect(trail.records.map((r) => r.callId).sort()).toEqual(returned.slice(0, -1).sort());
    expect(trail.files.every((f) => f.invalidLines.length === 0)).toBe(true);
  }, 60_000);
});
