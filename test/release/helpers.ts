import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import { ROOT } from "../../scripts/workspace.js";
import { childEnv } from "./consumer-env.js";

/** What a finished child process said. */
export interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to the end, on the Node running the tests unless `node` says otherwise. */
export function run(command: string, args: readonly string[], cwd: string, node = process.execPath): Ran {
  const result = spawnSync(command, args, { cwd, env: childEnv(node), encoding: "utf8", timeout: 120_000 });
  return { status: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "" };
}

/** The workspace's TypeScript compiler on a project of the consumer; its output on failure. */
export function tsc(project: string, cwd: string): Ran {
  return run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project], cwd);
}

/**
 * The errors of a type check that are ours: in the program, or in a declaration file toolware published. Errors
 * inside other packages' declarations (`skipLibCheck` is off, so a framework's own missing types show) are theirs.
 */
export function ownTypeErrors(result: Ran): string[] {
  const diagnostics: string[] = [];
  for (const line of `${result.stdout}${result.stderr}`.split("\n")) {
    if (line.trim() === "") continue;
    // tsc indents the continuation lines of a diagnostic.
    if (/^\s/.test(line) && diagnostics.length > 0) diagnostics[diagnostics.length - 1] += `\n${line}`;
    else diagnostics.push(line);
  }
  return diagnostics.filter((d) => !d.startsWith("node_modules/") || d.startsWith("node_modules/@toolware/"));
}

/** The report of test/release/consumer/src/web-app.ts's runStack(). */
export interface StackReport {
  readonly blocked: readonly [string, string | undefined];
  readonly first: string;
  readonly second: string;
  readonly runs: number;
  readonly cacheHits: number;
  readonly gated: readonly [string, string | undefined];
}

/** What the stack must do in every runtime; `noTerminal` is why the approval gate could not ask there. */
export function expectStack(report: StackReport, noTerminal: RegExp): void {
  expect(report.blocked[0]).toBe("blocked");
  expect(report.blocked[1]).toMatch(/delete_file/);
  expect(report.first).toBe(report.second);
  expect(report.first).toMatch(/^profile 7: /);
  expect(report.first).not.toMatch(/ada@example\.com|sk-live-0123456789abcdef/);
  expect(report.first).toMatch(/\[EMAIL-REDACTED\]/);
  expect(report.runs).toBe(1);
  expect(report.cacheHits).toBe(1);
  expect(report.gated[0]).toBe("blocked");
  expect(report.gated[1]).toMatch(noTerminal);
}
