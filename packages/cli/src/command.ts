import type { OptionSpecs, ParsedArgs } from "./args.js";

/** Where a command writes, and what it runs in. */
export interface CliIO {
  /** Standard output: the command's result. */
  out(text: string): void;
  /** Standard error: errors, warnings, progress. */
  err(text: string): void;
  /** The directory relative paths are read from and shown against. Default: `process.cwd()`. */
  readonly cwd?: string;
  /** Aborted when the process is asked to stop: a long-running command ends on it. */
  readonly signal?: AbortSignal;
}

/** The exit codes every command shares. */
export const EXIT = {
  /** The command did what it was asked. */
  ok: 0,
  /** It ran and failed: an input it cannot read, a check that does not pass. The reason is on stderr. */
  failure: 1,
  /** The command line is wrong: an unknown command or option, a missing argument, a bad value. */
  usage: 2,
  /** An unexpected error: a bug, reported on stderr with its stack. */
  internal: 3,
} as const;

/** What a command's `run` gets besides its arguments: `cwd` is always set. */
export interface CommandIO extends CliIO {
  readonly cwd: string;
}

/** A command that runs: `toolware audit <file>`. */
export interface LeafCommand<O extends OptionSpecs = OptionSpecs> {
  readonly name: string;
  /** One line, shown in the list of commands. */
  readonly summary: string;
  /** What the command does, for its `--help`. */
  readonly description: string;
  /** Its positional arguments by name: `"file"` is required, `"file?"` optional, `"files..."` one or more. */
  readonly args: readonly string[];
  readonly options: O;
  /** What exit code 1 means for this command, for its `--help`. */
  readonly failure: string;
  /** Runs the command; resolves to the exit code. Throws `TOOLWARE_CLI_USAGE` for a usage error (exit 2). */
  run(args: ParsedArgs<O>, io: CommandIO): number | Promise<number>;
}

/** A command that holds others: `toolware policy check|explain|test`. */
export interface CommandGroup {
  readonly name: string;
  readonly summary: string;
  readonly description: string;
  readonly commands: readonly Command[];
  /**
   * What runs when no command of the group is named: `toolware audit <file>` beside `toolware audit verify <file>`,
   * `toolware inbox` beside `toolware inbox approver add`. It gets the rest of the line; a word that names no command
   * is one of its arguments when it takes any, else an unknown command.
   */
  readonly default?: Command;
}

/** One entry of the command tree. */
export type Command = LeafCommand<OptionSpecs> | CommandGroup;

/**
 * A command, typed by its options: `run` gets a boolean for each flag and a string (or undefined) for each option
 * that takes a value.
 *
 * @example
 * ```ts
 * export const hello = defineCommand({
 *   name: "hello", summary: "greets", description: "Greets someone.", args: ["name"], failure: "never",
 *   options: { loud: { type: "boolean", description: "shout" } },
 *   run: ({ positionals: [name], options }, io) => (io.out(options.loud ? `HELLO ${name}\n` : `hello ${name}\n`), 0),
 * });
 * ```
 */
export function defineCommand<const O extends OptionSpecs>(command: LeafCommand<O>): Command {
  return command as unknown as Command;
}

/** True for a command group, which dispatches to its commands. */
export function isGroup(command: Command): command is CommandGroup {
  return "commands" in command;
}

const GLOBAL_OPTIONS: readonly (readonly [string, string])[] = [
  ["-h, --help", "show this help"],
  ["-V, --version", "print the version of toolware"],
];

function columns(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

function argsUsage(args: readonly string[]): string {
  return args
    .map((a) => (a.endsWith("?") ? `[${a.slice(0, -1)}]` : a.endsWith("...") ? `<${a.slice(0, -3)}>...` : `<${a}>`))
    .join(" ");
}

/** The usage line of a command: `usage: toolware audit <file> [options]`. */
export function usageLine(path: string, command: Command): string {
  if (isGroup(command)) {
    const group = `${path} <command> [options]`;
    return command.default === undefined ? `usage: ${group}` : `${usageLine(path, command.default)}\n       ${group}`;
  }
  return `usage: ${[path, argsUsage(command.args), "[options]"].filter((p) => p !== "").join(" ")}`;
}

/** The `--help` text of a command or group, `path` being how it is called (`toolware audit`). */
export function helpText(path: string, command: Command): string {
  const lines = [usageLine(path, command), "", command.description, ""];
  const leaf = isGroup(command) ? command.default : command;
  if (isGroup(command)) lines.push("Commands:", ...columns(command.commands.map((c) => [c.name, c.summary])), "");
  const own =
    leaf === undefined || isGroup(leaf)
      ? []
      : Object.entries(leaf.options).map(([name, spec]): [string, string] => {
          const flag = `${spec.short === undefined ? "" : `-${spec.short}, `}--${name}`;
          return [spec.type === "string" ? `${flag} ${spec.value}` : flag, spec.description];
        });
  lines.push("Options:", ...columns([...own, ...GLOBAL_OPTIONS]), "");
  if (isGroup(command)) lines.push(`Run "${path} <command> --help" for the options of a command.`, "");
  const failure = leaf === undefined || isGroup(leaf) ? "the command failed (its --help says when)" : leaf.failure;
  lines.push(
    "Exit codes:",
    ...columns([
      [`${EXIT.ok}`, "done"],
      [`${EXIT.failure}`, failure],
      [`${EXIT.usage}`, "a usage error: an unknown command or option, a missing argument, a bad value"],
      [`${EXIT.internal}`, "an unexpected error (a bug in toolware: please report it)"],
    ]),
    "",
  );
  return lines.join("\n");
}
