// Helpers of the CLI's tests: the command in this process (runToolware) and as a child process (src/bin.ts under
// tsx's loader, the same code bin/toolware.js runs from dist/), both answering { code, out, err }.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll } from "vitest";
import { runCommands, runToolware } from "../cli.js";
import type { CommandGroup } from "../command.js";

const root = fileURLToPath(new URL("../../../..", import.meta.url));
const bin = fileURLToPath(new URL("../bin.ts", import.meta.url));
const loader = pathToFileURL(join(root, "node_modules/tsx/dist/loader.mjs")).href;

/** What one run of the command printed and how it exited. */
export interface CliRun {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** Runs `toolware <argv>` in this process, in `cwd`, against the real command tree or `tree`. */
export async function inProcess(argv: readonly string[], cwd: string, tree?: CommandGroup): Promise<CliRun> {
  let out = "";
  let err = "";
  const io = {
    out: (text: string) => {
      out += text;
    },
    err: (text: string) => {
      err += text;
    },
    cwd,
  };
  const code = tree === undefined ? await runToolware(argv, io) : await runCommands(tree, argv, io);
  return { code, out, err };
}

/** Runs `toolware <argv>` as a child process in `cwd`. */
export function child(argv: readonly string[], cwd: string): CliRun {
  const run = spawnSync(process.execPath, ["--import", loader, "--conditions", "@toolware/source", bin, ...argv], {
    cwd,
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

/** A scratch folder, removed after the file's tests, and a way to write files into it. */
export function scratch(prefix: string): { dir: string; write(name: string, text: string): string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(name, text) {
      const file = join(dir, name);
      writeFileSync(file, text);
      return file;
    },
  };
}

/** Starts `toolware <argv>` in this process for a command that runs until stopped (`toolware inbox`). */
export function started(
  argv: readonly string[],
  cwd: string,
): { out(): string; err(): string; stop(): void; code: Promise<number> } {
  let out = "";
  let err = "";
  const stop = new AbortController();
  const io = {
    out: (text: string) => {
      out += text;
    },
    err: (text: string) => {
      err += text;
    },
    cwd,
    signal: stop.signal,
  };
  return { out: () => out, err: () => err, stop: () => stop.abort(), code: runToolware(argv, io) };
}
