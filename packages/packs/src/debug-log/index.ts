import {
  type AgentFilter,
  type CallStatus,
  definePack,
  messageOf,
  type Pack,
  type ToolCallHookContext,
} from "@toolware/core";
import { type HookDecision, hookDecisions } from "../internal/decisions.js";
import { packTypeError, shown } from "../internal/errors.js";
import { observerOptions } from "../internal/observer-options.js";
import {
  checkBoolean,
  checkFunction,
  checkKeys,
  checkOptionsObject,
  checkPriority,
  ownOptions,
} from "../internal/options.js";
import type { ToolSelector } from "../internal/tool-selector.js";
import { truncate } from "../internal/truncate.js";
import { limitsOf, type PreviewLimits, safeJson } from "./preview.js";

export type { HookDecision } from "../internal/decisions.js";
export type { ToolSelector } from "../internal/tool-selector.js";
export { truncate } from "../internal/truncate.js";
export { type PreviewLimits, safeJson } from "./preview.js";

declare module "@toolware/core" {
  interface ToolCallState {
    /** Start times of the debug-log packs watching this call, one per pack instance. */
    debugLogStartedAt?: { [pack: symbol]: number };
  }
}

/** Structured fields of a log line (`structured: true`), in the shape pino expects as its first argument. */
export interface DebugLogFields {
  readonly event: "tool_call" | "tool_result";
  readonly callId: string;
  readonly tool: string;
  readonly agent: string | undefined;
  readonly task?: string | undefined;
  readonly input?: string;
  readonly decision?: DebugDecision;
  /** How the call ended (`tool_result` only): `ok`, `blocked` or `error`, as in the outcome. */
  readonly status?: CallStatus;
  /** What the hooks inside the pack decided (`tool_result` only): every trace entry but those that proceeded. */
  readonly hooks?: readonly HookDecision[];
  readonly durationMs?: number | undefined;
  readonly result?: string;
  readonly reason?: string | undefined;
  readonly error?: string;
}

/** How a call ended, as the log reports it. */
export type DebugDecision = "ok" | "substituted" | "blocked" | "error";

/**
 * Anything with `info`, `warn` and `error`: `console`, a pino or winston
 * logger, or your own. Text mode passes one string; `structured` mode passes
 * `(fields, message)`, pino's order.
 */
export interface DebugLogger {
  info(first: string | DebugLogFields, message?: string): void;
  warn(first: string | DebugLogFields, message?: string): void;
  error(first: string | DebugLogFields, message?: string): void;
}

/** Options of {@link debugLog}. */
export interface DebugLogOptions {
  /** Default `console`. */
  logger?: DebugLogger;
  /** Characters shown of input, result and task: one number for all, or per part. Default `{ input: 200, result: 200, task: 50 }`. */
  maxPreview?: number | Partial<PreviewLimits>;
  /** Applied to every preview (input, task, result, reason, error) before it is cut and logged. */
  redact?: (text: string) => string;
  /** Log `(fields, message)` instead of one text line. Default false. */
  structured?: boolean;
  /** Also log when a call starts, not only when it ends. Default true. */
  logStart?: boolean;
  /** Clock in milliseconds. Default `performance.now`. */
  now?: () => number;
  /** Chain position. Default 900: outside most hooks, so it logs their blocks and substitutions. */
  priority?: number;
  tools?: ToolSelector;
  agents?: AgentFilter;
}

const PREFIX = "toolware/debug-log";
const OPTION_KEYS = ["logger", "maxPreview", "redact", "structured", "logStart", "now", "priority", "tools", "agents"];

function validate(options: DebugLogOptions): void {
  checkOptionsObject(options, `${PREFIX}: debugLog() takes an options object`);
  checkKeys(options, OPTION_KEYS, PREFIX, { aliases: { maxLength: "maxPreview", json: "structured" } });
  const { logger, redact, now, priority } = options;
  if (
    logger !== undefined &&
    (logger === null ||
      (typeof logger !== "object" && typeof logger !== "function") ||
      (["info", "warn", "error"] as const).some((m) => typeof logger[m] !== "function"))
  ) {
    throw packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: \`logger\` must have info, warn and error methods`);
  }
  checkFunction(redact, "redact", PREFIX, " (text) => string");
  checkFunction(now, "now", PREFIX);
  // Both are read as `=== true` / `=== false`: "yes" or 0 would silently mean the default.
  checkBoolean(options.structured, "structured", PREFIX);
  checkBoolean(options.logStart, "logStart", PREFIX);
  checkPriority(priority, PREFIX);
}

/**
 * Logs every tool call, the seed's "debug logging": who called which tool
 * with what (previews cut to `maxPreview`, passed through `redact` first),
 * then how it ended, how long it took and a preview of the result. Blocks are
 * warnings, tool errors are errors. An observer: it fails open, and a logger
 * or `redact` that throws loses that line, never the call.
 *
 * @example
 * ```ts
 * hooks.use(debugLog({ logger: pino(), structured: true, redact: (t) => t.replaceAll(/sk-\w+/g, "[KEY]") }));
 * // {"event":"tool_call","tool":"web_search","agent":"researcher","input":"{\"query\":\"toolware\"}",…}
 * // {"event":"tool_result","tool":"web_search","decision":"ok","durationMs":12.3,"result":"…",…}
 * ```
 */
export function debugLog(options: DebugLogOptions = {}): Pack {
  options = ownOptions(options, PREFIX);
  validate(options);
  const logger: DebugLogger = options.logger ?? console;
  const limits = limitsOf(options.maxPreview);
  const redact = options.redact;
  const structured = options.structured === true;
  const clock = options.now ?? (() => performance.now());
  const id = Symbol("debug-log");

  const preview = (text: string, max: number): string => {
    const clean = redact === undefined ? text : redact(text);
    if (typeof clean !== "string") {
      throw packTypeError("TOOLWARE_INVALID_RETURN", `${PREFIX}: \`redact\` must return a string, got ${shown(clean)}`);
    }
    return truncate(clean, max);
  };

  const emit = (level: "info" | "warn" | "error", fields: DebugLogFields, text: string): void => {
    if (structured) logger[level](fields, text);
    else logger[level](text);
  };

  function debugStart(ctx: ToolCallHookContext): void {
    const state = ctx.state;
    if (state.debugLogStartedAt === undefined) state.debugLogStartedAt = {};
    state.debugLogStartedAt[id] = clock();
    if (options.logStart === false) return;
    const agent = ctx.agent?.role;
    const task = ctx.task === undefined ? undefined : preview(ctx.task.description, limits.task);
    const input = preview(safeJson(ctx.toolInput), limits.input);
    const text = `🔍 [${ctx.callId}] ${ctx.toolName} called | agent: ${agent ?? "Unknown"} | task: ${task ?? "Unknown"} | input: ${input}`;
    emit("info", { event: "tool_call", callId: ctx.callId, tool: ctx.toolName, agent, task, input }, text);
  }

  function debugEnd(ctx: ToolCallHookContext): void {
    const started = ctx.state.debugLogStartedAt?.[id];
    const durationMs = started === undefined ? undefined : Math.round((clock() - started) * 10) / 10;
    const took = durationMs === undefined ? "" : ` in ${durationMs}ms`;
    const head = `[${ctx.callId}] ${ctx.toolName}`;
    const base = {
      event: "tool_result" as const,
      callId: ctx.callId,
      tool: ctx.toolName,
      agent: ctx.agent?.role,
      // Text lines show neither: only structured records pay for their previews.
      task: structured && ctx.task !== undefined ? preview(ctx.task.description, limits.task) : undefined,
      status: ctx.status,
      durationMs,
      hooks: structured ? hookDecisions(ctx.trace, (reason) => preview(reason, limits.result)) : undefined,
    };
    if (ctx.status === "blocked") {
      const reason = ctx.blockReason === undefined ? undefined : preview(ctx.blockReason, limits.result);
      emit(
        "warn",
        { ...base, decision: "blocked", reason },
        `⛔ ${head} blocked${took} | reason: ${reason ?? "none given"}`,
      );
      return;
    }
    if (ctx.status === "error") {
      const error = preview(messageOf(ctx.error), limits.result);
      emit("error", { ...base, decision: "error", error }, `❌ ${head} failed${took} | error: ${error}`);
      return;
    }
    const decision: DebugDecision = ctx.toolRan ? "ok" : "substituted";
    const how = decision === "ok" ? "ok" : "ok (substituted, tool not run)";
    if (ctx.toolResult === undefined || ctx.toolResult === "") {
      emit("warn", { ...base, decision, result: "" }, `⚠️ ${head} ${how}${took} | no result returned`);
      return;
    }
    const result = preview(ctx.toolResult, limits.result);
    emit("info", { ...base, decision, result }, `✅ ${head} ${how}${took} | result: ${result}`);
  }

  const hookOptions = observerOptions(options, 900, "toolware/debug-log");
  return definePack({
    name: "debug-log",
    // At equal priority after-hooks sit outside before-hooks: the end line sees everything inside.
    hooks: [
      { kind: "before", fn: debugStart, options: { ...hookOptions, name: "start" } },
      { kind: "after", fn: debugEnd, options: { ...hookOptions, name: "end" } },
    ],
  });
}
