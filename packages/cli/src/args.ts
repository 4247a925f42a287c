import { closestKey, ToolwareTypeError } from "@toolware/core";

/** A flag: present or not (`--json`). */
export interface BooleanOption {
  readonly type: "boolean";
  readonly short?: string;
  readonly description: string;
}

/** An option that takes a value (`--top 20`, `--top=20`); `value` names it in the help (`N`). */
export interface StringOption {
  readonly type: "string";
  readonly short?: string;
  readonly value: string;
  readonly description: string;
}

/** The options of a command, by long name (without the dashes). */
export type OptionSpecs = Readonly<Record<string, BooleanOption | StringOption>>;

/** What the options parsed to: a boolean per flag, a string (or undefined when not given) per option with a value. */
export type OptionValues<O extends OptionSpecs> = {
  readonly [K in keyof O]: O[K] extends BooleanOption ? boolean : string | undefined;
};

/** The arguments of one command line, split into positionals and options. */
export interface ParsedArgs<O extends OptionSpecs> {
  readonly positionals: readonly string[];
  readonly options: OptionValues<O>;
}

/** A usage error: the command line asks for something the command does not take. Exit code 2. */
export function usageError(message: string): ToolwareTypeError {
  return new ToolwareTypeError("TOOLWARE_CLI_USAGE", message);
}

function unknownOption(given: string, specs: OptionSpecs): ToolwareTypeError {
  const close = closestKey(given.replace(/^-+/, ""), Object.keys(specs));
  const hint = close === undefined ? "" : ` (did you mean --${close}?)`;
  return usageError(`unknown option ${JSON.stringify(given)}${hint}`);
}

/**
 * Splits a command line by the command's option specs. Refused (`TOOLWARE_CLI_USAGE`): an option the command does
 * not take (with a "did you mean" hint), an option given twice, a flag given a value (`--json=no`), an option
 * missing its value. After `--` every argument is a positional, dashes or not.
 */
export function parseArgs<O extends OptionSpecs>(args: readonly string[], specs: O): ParsedArgs<O> {
  const positionals: string[] = [];
  const values = new Map<string, string | boolean>();
  const shorts = new Map(
    Object.entries(specs).flatMap(([name, s]) => (s.short === undefined ? [] : [[s.short, name]])),
  );
  const set = (name: string, value: string | boolean): void => {
    if (values.has(name)) throw usageError(`--${name} is given twice`);
    values.set(name, value);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    const long = arg.startsWith("--");
    const eq = long ? arg.indexOf("=") : -1;
    const key = long ? arg.slice(2, eq === -1 ? undefined : eq) : arg.slice(1);
    const name = long ? key : shorts.get(key);
    const spec = name !== undefined && Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (name === undefined || spec === undefined) throw unknownOption(long ? `--${key}` : arg, specs);
    if (spec.type === "boolean") {
      if (eq !== -1) throw usageError(`--${name} is a flag and takes no value`);
      set(name, true);
    } else if (eq !== -1) {
      set(name, arg.slice(eq + 1));
    } else {
      const value = args[i + 1];
      if (value === undefined) throw usageError(`--${name} needs a value (--${name} ${spec.value})`);
      set(name, value);
      i++;
    }
  }
  const options: Record<string, string | boolean | undefined> = {};
  for (const [name, spec] of Object.entries(specs)) {
    options[name] = values.get(name) ?? (spec.type === "boolean" ? false : undefined);
  }
  return { positionals, options: options as OptionValues<O> };
}

/**
 * A whole number of at least `min` written in decimal digits: `--top 1e3`, `1.5`, `-1`, `0x10`, ` 7` and values past
 * `Number.MAX_SAFE_INTEGER` are refused (`TOOLWARE_CLI_USAGE`), never rounded or read another way.
 */
export function wholeNumber(option: string, text: string, min = 0): number {
  const value = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    throw usageError(`--${option} takes a whole number of ${min} or more, got ${JSON.stringify(text)}`);
  }
  return value;
}
