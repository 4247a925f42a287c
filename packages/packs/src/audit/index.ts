import { definePack, messageOf, type Pack, type ToolCallHookContext, ToolwareError } from "@toolware/core";
import { redactValue } from "@toolware/packs/redact";
import { observerOptions } from "../internal/observer-options.js";
import { ownOptions } from "../internal/options.js";
import { type AuditOptions, resolveAuditOptions } from "./options.js";
import { RecordBuilder } from "./record.js";
import { AuditWriter } from "./writer.js";

export type { HookDecision } from "../internal/decisions.js";
export type { ToolSelector } from "../internal/tool-selector.js";
export { formatAuditSummary } from "./format.js";
export type { AuditContext, AuditOptions } from "./options.js";
export {
  type AuditFileReport,
  type AuditSummary,
  type AuditToolCounts,
  type AuditTrail,
  auditFiles,
  readAuditTrail,
  summarizeAudit,
} from "./reader.js";
export { type AuditRecord, REDACTION_FAILED } from "./record.js";
export type { AuditDurability } from "./writer.js";

declare module "@toolware/core" {
  interface ToolCallState {
    /** Start times of the audit packs recording this call, one per pack instance. */
    auditStartedAt?: { [pack: symbol]: number };
  }
}

// A clock that returns no usable time must not cost the call its line.
function usable(time: number): number {
  return Number.isFinite(time) ? time : Date.now();
}

/** The pack {@link audit} returns. */
export type AuditPack = Pack<{
  /** The file lines are appended to (rotated files sit beside it as `<file>.1`, `<file>.2`, …). */
  readonly file: string;
  /** Closes the file, e.g. at shutdown; a later call opens it again. */
  close(): void;
}>;

/**
 * An audit trail that survives a crash: one JSON line per call (call id, time, tool, agent, task, the input as the
 * tool got it, status, reason, a result preview, every hook decision) appended to `file`. Each line is written with
 * a synchronous system call (and, by default, `fsync`ed) before the outcome is returned to the agent, so a killed
 * process loses at most the line being written and never an earlier one. Inputs, results and reasons pass through
 * `redact` first (by default the redact pack's detectors). The file rotates by size to `<file>.1`, `<file>.2`, …,
 * keeping every line. Needs Node (`node:fs`).
 *
 * A line that cannot be written withholds the call's result (`onError: "block"`, the default): an agent never acts on
 * a call the trail does not hold.
 *
 * A call that ended before any hook could run (arguments an adapter refused, `TOOLWARE_INVALID_INPUT`; an input the
 * tool's schema rejected, `TOOLWARE_INPUT_REJECTED`) gets its one line too, with status `error`, `toolRan: false` and
 * the code in `result`, when the pack is registered on the ToolHooks itself (not on an agent or crew).
 *
 * @example
 * ```ts
 * hooks.use(audit({ file: "/var/log/agent/audit.jsonl" }));
 * // {"v":1,"time":"2026-03-02T10:15:00.000Z","callId":"k3x9q1-00","tool":"web_search","agent":"researcher",…}
 * ```
 */
export function audit(options: AuditOptions): AuditPack {
  options = ownOptions(options, "toolware/audit");
  const resolved = resolveAuditOptions(options);
  // Every option is checked before the file is taken: a refused audit() holds no file.
  const hookOptions = { ...observerOptions(options, 1100, "toolware/audit"), onError: resolved.onError };
  const writer = new AuditWriter(resolved.file, resolved.durability, resolved.maxBytes);
  const builder = new RecordBuilder(
    resolved.redact ?? ((value) => redactValue(value)),
    resolved.maxInput,
    resolved.maxResult,
    resolved.context,
  );
  const clock = resolved.now;
  const id = Symbol("audit");

  function start(ctx: ToolCallHookContext): void {
    const state = ctx.state;
    if (state.auditStartedAt === undefined) state.auditStartedAt = {};
    state.auditStartedAt[id] = clock();
  }

  function record(ctx: ToolCallHookContext): void {
    const endedAt = usable(clock());
    const startedAt = ctx.state.auditStartedAt?.[id];
    writer.append(builder.line(ctx, startedAt === undefined ? endedAt : usable(startedAt), endedAt));
    if (builder.contextFailure !== undefined) ctx.reportError("audit.context", builder.contextFailure);
    if (builder.failure !== undefined) {
      // The line holds placeholders, never the text: the failure is reported without changing the call.
      const cause = builder.failure;
      ctx.reportError(
        "audit.redact",
        new ToolwareError("TOOLWARE_REDACT_FAILED", `audit: redact failed: ${messageOf(cause)}`, { cause }),
      );
    }
  }

  return definePack({
    name: "audit",
    // One line per call: registered twice in one chain, the instance would write every call twice.
    stateful: true,
    // At equal priority after-hooks sit outside before-hooks: the record sees every hook inside both.
    hooks: [
      { kind: "before", fn: start, options: { ...hookOptions, name: "start" } },
      { kind: "after", fn: record, options: { ...hookOptions, name: "record" } },
    ],
    // A call refused before any hook ran (arguments an adapter could not read, a failing bind, an
    // input the tool's schema rejected) never reaches `record`: its line is written when it ends.
    observe: {
      "call:end": ({ ctx, refused }) => {
        if (refused === true && ctx.state.auditStartedAt?.[id] === undefined) record(ctx);
      },
    },
    file: writer.file,
    close(): void {
      writer.close();
    },
  });
}
