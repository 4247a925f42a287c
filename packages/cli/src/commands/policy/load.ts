import { isAbsolute, relative, resolve } from "node:path";
import { messageOf, toolwareCode } from "@toolware/core";
import { memoryCacheStore } from "@toolware/packs/cache";
import { memoryCircuitStore } from "@toolware/packs/circuit-breaker";
import { memoryLoopGuardStore } from "@toolware/packs/loop-guard";
import { memoryRateLimitStore } from "@toolware/packs/rate-limit";
import {
  formatIssue,
  type LoadedDocument,
  loadPolicy,
  PolicyLoadError,
  type PolicyLoadIssue,
  type PolicyMode,
  type PolicyPack,
  readPolicyFile,
} from "@toolware/policy";
import type { CommandIO } from "../kit.js";
import { EXIT, usageError } from "../kit.js";

/** A policy file the CLI loaded: as checked, and compiled into a pack whose `explain` decides described calls. */
export interface OpenedPolicy {
  readonly loaded: LoadedDocument;
  readonly pack: PolicyPack;
  /** How the file is named in output: as the user wrote it. */
  readonly shown: string;
}

/** How a file is named in output: as given on the command line, else relative to the working directory. */
export function namer(io: CommandIO, given: string): (file: string) => string {
  const abs = resolve(io.cwd, given);
  return (file) => {
    if (file === abs) return given;
    const rel = relative(io.cwd, file);
    return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file;
  };
}

/** Prints every issue as `FILE:LINE:COLUMN: path: message (did you mean "x"?)`, one a line, on stderr. */
export function printIssues(io: CommandIO, issues: readonly PolicyLoadIssue[], name: (file: string) => string): void {
  for (const issue of issues) io.err(`${formatIssue({ ...issue, file: name(issue.file) })}\n`);
}

/** `--mode`: the mode every rule is decided in, overriding the file's. */
export function modeOption(value: string | undefined): PolicyMode | undefined {
  if (value === undefined || value === "enforce" || value === "shadow") return value;
  throw usageError(`--mode takes enforce or shadow, got ${JSON.stringify(value)}`);
}

// Stores a file names by URL (`redis://…`) are the application's to pass in code; the CLI only decides described
// calls, so memory stores stand in and no connection is opened.
const standIns = () => ({
  rateLimit: memoryRateLimitStore(),
  cache: memoryCacheStore(),
  loopGuard: memoryLoopGuardStore(),
  circuitBreaker: memoryCircuitStore(),
});

/**
 * Reads, checks and compiles a policy file as `loadPolicy` does (its CEL conditions, Cedar policies and packs'
 * options included). On failure prints the problems on stderr and resolves to the exit code instead.
 */
export async function openPolicy(io: CommandIO, given: string, mode?: PolicyMode): Promise<OpenedPolicy | number> {
  const name = namer(io, given);
  const abs = resolve(io.cwd, given);
  try {
    const loaded = await readPolicyFile(abs);
    const pack = await loadPolicy(loaded, { stores: standIns(), ...(mode === undefined ? {} : { mode }) });
    return { loaded, pack, shown: given };
  } catch (error) {
    if (error instanceof PolicyLoadError) {
      printIssues(io, error.issues, name);
      return EXIT.failure;
    }
    if (toolwareCode(error) === "TOOLWARE_POLICY_UNREADABLE") {
      const cause = error instanceof Error ? error.cause : undefined;
      const why = cause instanceof Error ? cause.message : messageOf(error);
      io.err(`${given}: cannot read the policy file: ${why.replaceAll(abs, given)}\n`);
      return EXIT.failure;
    }
    throw error;
  }
}
