import { resolve } from "node:path";
import type { AgentFilter, ToolCallHookContext, ToolwareTypeError } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { checkFunction, checkKeys, checkOptionsObject, checkPriority, ownOptions } from "../internal/options.js";
import type { ToolSelector } from "../internal/tool-selector.js";
import type { AuditDurability } from "./writer.js";

/** What `context` adds to a line: who made the call and what decided it (strings are redacted and cut). */
export type AuditContext = Readonly<Record<string, string | number | boolean | undefined>>;

/** Options of {@link audit}. */
export interface AuditOptions {
  /** The file to append to; its directory is created if missing. Required. */
  file: string;
  /**
   * What "written" means before the outcome is returned: `"fsync"` (default), on the storage device, surviving a
   * power loss; `"write"`, in the operating system's cache, surviving the process being killed but not an OS crash.
   */
  durability?: AuditDurability;
  /** Rotate when a line would take the file past this many bytes. Default 64 MiB; `Infinity` never rotates. */
  maxBytes?: number;
  /**
   * Applied to the input (a value: return a redacted copy) and to every text (task, reason, error, result, hook
   * reasons) before it is written. Default: the redact pack's `redactValue` (keys, tokens, e-mails, cards).
   * Pass `(value) => value` to write everything as it is.
   */
  redact?: (value: unknown) => unknown;
  /** Characters of input JSON kept as a value; a longer input is written as a cut string. Default 4000. */
  maxInput?: number;
  /** Characters kept of the result, task, reasons and error. Default 1000. */
  maxResult?: number;
  /**
   * When a line cannot be written (disk full, permissions): `"block"` (default) withholds the result, so the agent
   * never acts on a call the trail does not hold; `"continue"` lets the call through and reports `hook:error`.
   */
  onError?: "block" | "continue";
  /**
   * More about each call, written as the line's `context` (read when the call ends): the policy's deciding rule, the
   * gateway's client and upstream, your own request id. Strings pass through `redact` and are cut to `maxResult`;
   * `undefined` values are left out. A throw is reported through `onListenerError` and the line is written without it.
   */
  context?: (ctx: ToolCallHookContext) => AuditContext | undefined;
  /** Wall clock in milliseconds since the epoch. Default `performance.timeOrigin + performance.now()`. */
  now?: () => number;
  /** Chain position. Default 1100: outside analytics (1000) and the guards, inside the otel span (1200). */
  priority?: number;
  tools?: ToolSelector;
  agents?: AgentFilter;
}

/** @internal */
export interface ResolvedAuditOptions {
  readonly file: string;
  readonly durability: AuditDurability;
  readonly maxBytes: number;
  readonly redact: ((value: unknown) => unknown) | undefined;
  readonly maxInput: number;
  readonly maxResult: number;
  readonly onError: "block" | "continue";
  readonly now: () => number;
  readonly context: ((ctx: ToolCallHookContext) => AuditContext | undefined) | undefined;
}

const PREFIX = "toolware/audit";
const OPTION_KEYS = [
  "file",
  "durability",
  "maxBytes",
  "redact",
  "maxInput",
  "maxResult",
  "onError",
  "now",
  "context",
  "priority",
  "tools",
  "agents",
];

function invalid(message: string): ToolwareTypeError {
  return packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: ${message}`);
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < 1) {
    throw invalid(`\`${name}\` must be a positive integer, got ${shown(value)}`);
  }
  return value as number;
}

const defaultNow = (): number => performance.timeOrigin + performance.now();

/** Checks every option when the pack is made, so a typo fails at start-up, not on the first call. @internal */
export function resolveAuditOptions(options: AuditOptions): ResolvedAuditOptions {
  options = ownOptions(options, PREFIX);
  checkOptionsObject(options, `${PREFIX}: audit() takes an options object: { file }`);
  checkKeys(options, OPTION_KEYS, PREFIX, { aliases: { path: "file", filename: "file", sync: "durability" } });
  const { file, durability = "fsync", maxBytes = 64 * 1024 * 1024, redact, onError = "block", now } = options;
  if (typeof file !== "string" || file === "" || file.includes("\0")) {
    throw invalid(`\`file\` must be a non-empty path, e.g. audit({ file: "logs/audit.jsonl" }), got ${shown(file)}`);
  }
  if (durability !== "fsync" && durability !== "write") {
    throw invalid(`\`durability\` must be "fsync" or "write", got ${shown(durability)}`);
  }
  if (maxBytes !== Number.POSITIVE_INFINITY && (!Number.isInteger(maxBytes) || maxBytes < 1)) {
    throw invalid(`\`maxBytes\` must be a positive integer or Infinity, got ${shown(maxBytes)}`);
  }
  checkFunction(redact, "redact", PREFIX, " (value) => value, such as the redact pack's redactValue");
  if (onError !== "block" && onError !== "continue") {
    throw invalid(`\`onError\` must be "block" or "continue", got ${shown(onError)}`);
  }
  checkFunction(now, "now", PREFIX, " () => milliseconds");
  checkFunction(options.context, "context", PREFIX, " (ctx) => ({ key: value })");
  checkPriority(options.priority, PREFIX);
  return {
    file: resolve(file),
    durability,
    maxBytes,
    redact,
    maxInput: positiveInteger(options.maxInput, "maxInput", 4000),
    maxResult: positiveInteger(options.maxResult, "maxResult", 1000),
    onError,
    now: now ?? defaultNow,
    context: options.context,
  };
}
