import { closestKey, messageOf, ToolwareTypeError, toolwareCode } from "@toolware/core";
import { parseArgs, usageError } from "./args.js";
import {
  type CliIO,
  type Command,
  type CommandGroup,
  type CommandIO,
  EXIT,
  helpText,
  isGroup,
  type LeafCommand,
} from "./command.js";
import { commands } from "./commands/index.js";
import { cliVersion } from "./version.js";

const TOOLWARE: CommandGroup = {
  name: "toolware",
  summary: "the toolware command",
  description: "Tools for toolware's tool-call middleware: audit trails, policy files.",
  commands,
};

// `--help` and `--version` work everywhere, after any command; the first one given wins over anything else.
function globalFlag(args: readonly string[]): "help" | "version" | undefined {
  for (const arg of args) {
    if (arg === "--") return undefined;
    if (arg === "--help" || arg === "-h") return "help";
    if (arg === "--version" || arg === "-V") return "version";
  }
  return undefined;
}

function arity(args: readonly string[]): { min: number; max: number } {
  const variadic = args.some((a) => a.endsWith("..."));
  const min = args.filter((a) => !a.endsWith("?")).length;
  return { min, max: variadic ? Number.POSITIVE_INFINITY : args.length };
}

function checkArity(command: LeafCommand, positionals: readonly string[]): void {
  const { min, max } = arity(command.args);
  if (positionals.length >= min && positionals.length <= max) return;
  const wanted = min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
  const names = command.args.map((a) => a.replace(/[?.]+$/, "")).join(", ");
  const last = max === Number.POSITIVE_INFINITY ? min : max;
  const which = names === "" ? "" : ` (${names})`;
  throw usageError(`expected ${wanted} argument${last === 1 ? "" : "s"}${which}, got ${positionals.length}`);
}

// Finds the command a command line names, walking into groups: ["policy", "check", "f.yaml"] → check, ["f.yaml"].
// `where.path` follows the walk, so an error names the command it happened in.
function resolve(
  root: CommandGroup,
  argv: readonly string[],
  where: { path: string },
): { command: Command; rest: readonly string[] } {
  let command: Command = root;
  let rest = argv;
  while (isGroup(command)) {
    const [name, ...after] = rest;
    const group: CommandGroup = command;
    const fallback = group.default;
    if (name === undefined || name.startsWith("-")) {
      // `toolware audit --help` is the group's help: it lists the group's commands and the default's options.
      if (fallback === undefined || globalFlag(rest) !== undefined) break;
      command = fallback;
      continue;
    }
    const found = group.commands.find((c) => c.name === name);
    if (found === undefined && fallback !== undefined && (isGroup(fallback) || fallback.args.length > 0)) {
      command = fallback;
      continue;
    }
    if (found === undefined) {
      const close = closestKey(
        name,
        group.commands.map((c) => c.name),
      );
      const hint = close === undefined ? "" : ` (did you mean "${close}"?)`;
      throw usageError(`unknown command ${JSON.stringify(name)}${hint}`);
    }
    command = found;
    where.path = `${where.path} ${name}`;
    rest = after;
  }
  return { command, rest };
}

async function dispatch(
  root: CommandGroup,
  argv: readonly string[],
  io: CommandIO,
  where: { path: string },
): Promise<number> {
  const { command, rest } = resolve(root, argv, where);
  const path = where.path;
  const flag = globalFlag(rest);
  if (flag === "version") {
    io.out(`${cliVersion()}\n`);
    return EXIT.ok;
  }
  if (flag === "help") {
    io.out(helpText(path, command));
    return EXIT.ok;
  }
  if (isGroup(command)) {
    // Whatever follows a group is an option no group takes, or nothing.
    parseArgs(rest, {});
    throw usageError(`expected a command: ${command.commands.map((c) => c.name).join(", ")}`);
  }
  const leaf: LeafCommand = command;
  const parsed = parseArgs(rest, {
    ...leaf.options,
    help: { type: "boolean", description: "" },
    version: { type: "boolean", description: "" },
  });
  checkArity(leaf, parsed.positionals);
  return leaf.run(parsed, io);
}

const IO_KEYS = ["out", "err", "cwd", "signal"];

// The caller's own mistakes are refused before anything runs: a typo must not send output nowhere.
function checkCall(argv: unknown, io: unknown): Required<Pick<CliIO, "out" | "err">> & Omit<CliIO, "out" | "err"> {
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === "string")) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "runToolware(): argv must be an array of strings");
  }
  if (io === null || typeof io !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "runToolware(): io must be an object { out, err }");
  }
  // An options literal is checked key by key; an object of the caller's own class may hold state of its own.
  const proto = Object.getPrototypeOf(io);
  const keys = proto === Object.prototype || proto === null ? Object.keys(io) : [];
  for (const key of keys) {
    if (IO_KEYS.includes(key)) continue;
    const close = closestKey(key, IO_KEYS);
    const hint = close === undefined ? `expected one of: ${IO_KEYS.join(", ")}` : `did you mean \`${close}\`?`;
    throw new ToolwareTypeError(
      "TOOLWARE_UNKNOWN_OPTION",
      `runToolware(): unknown io key ${JSON.stringify(key)} (${hint})`,
    );
  }
  const { out, err, cwd, signal } = io as Record<string, unknown>;
  if (typeof out !== "function" || typeof err !== "function") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "runToolware(): io.out and io.err must be functions");
  }
  if (cwd !== undefined && (typeof cwd !== "string" || cwd === "")) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "runToolware(): io.cwd must be a non-empty string");
  }
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "runToolware(): io.signal must be an AbortSignal");
  }
  return {
    out: out as CliIO["out"],
    err: err as CliIO["err"],
    ...(cwd === undefined ? {} : { cwd }),
    ...(signal === undefined ? {} : { signal }),
  };
}

/**
 * Runs a command line against a tree of commands (`root.name` is the program's name) and resolves to its exit code.
 * Usage errors exit 2, coded errors 1, anything else 3, each with its message on `io.err`; rejects only for a wrong
 * `argv` or `io`.
 */
export async function runCommands(root: CommandGroup, argv: readonly string[], io: CliIO): Promise<number> {
  // Read once, bound to the caller's object: a class instance keeps its methods, a getter runs once.
  const { out, err, cwd, signal } = checkCall(argv, io);
  const own: CommandIO = {
    out: (text) => out.call(io, text),
    err: (text) => err.call(io, text),
    cwd: cwd ?? process.cwd(),
    ...(signal === undefined ? {} : { signal }),
  };
  const where = { path: root.name };
  try {
    return await dispatch(root, [...argv], own, where);
  } catch (error) {
    const code = toolwareCode(error);
    if (code === "TOOLWARE_CLI_USAGE") {
      const { path } = where;
      io.err(`${path}: ${messageOf(error).replace(/^toolware: /, "")}\nRun "${path} --help" for usage.\n`);
      return EXIT.usage;
    }
    if (code !== undefined) {
      // Coded errors name their subject already ("toolware: audit: no audit trail at …").
      io.err(`${messageOf(error)}\n`);
      return EXIT.failure;
    }
    const detail = error instanceof Error && error.stack !== undefined ? error.stack : messageOf(error);
    io.err(`${where.path}: unexpected error (a bug in toolware: please report it)\n${detail}\n`);
    return EXIT.internal;
  }
}

/**
 * Runs the `toolware` command line `argv` (the arguments after the program name) and resolves to its exit code:
 * 0 done, 1 the command failed (the reason on `io.err`), 2 a usage error, 3 an unexpected error. Rejects only for
 * its own wrong arguments (`TOOLWARE_INVALID_ARGUMENT`, `TOOLWARE_UNKNOWN_OPTION`, `TOOLWARE_INVALID_OPTION`).
 *
 * @example
 * ```ts
 * process.exitCode = await runToolware(process.argv.slice(2), {
 *   out: (text) => process.stdout.write(text),
 *   err: (text) => process.stderr.write(text),
 * });
 * ```
 */
export function runToolware(argv: readonly string[], io: CliIO): Promise<number> {
  return runCommands(TOOLWARE, argv, io);
}
