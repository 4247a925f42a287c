import { type CallStatus, messageOf, type ToolCallHookContext, ToolwareError, toolwareCode } from "@toolware/core";
import { type HookDecision, hookDecisions, policyDecider } from "../internal/decisions.js";
import { truncate } from "../internal/truncate.js";
import type { AuditContext } from "./options.js";

/** One line of the audit trail. */
export interface AuditRecord {
  /** The record format's version. */
  readonly v: 1;
  /** When the call started (ISO 8601, UTC). */
  readonly time: string;
  readonly callId: string;
  readonly tool: string;
  readonly agent: string | null;
  /** The task's description, redacted and cut to `maxResult` characters. */
  readonly task: string | null;
  /**
   * The input as the tool got it (after the hooks inside the pack changed it), redacted; a string preview
   * instead when its JSON is longer than `maxInput` characters, `"[unserialisable]"` for a cycle.
   */
  readonly input: unknown;
  readonly status: CallStatus;
  /** Whether the tool itself ran (false when blocked or answered by a hook, such as a cache hit). */
  readonly toolRan: boolean;
  /** The block reason, redacted. */
  readonly reason: string | null;
  /** The error message of a failed call, redacted. */
  readonly error: string | null;
  /** The stable code of a failed call's error (`TOOLWARE_INVALID_INPUT`, …), when it has one. */
  readonly code?: string;
  /** The agent-facing result, redacted and cut to `maxResult` characters. */
  readonly result: string;
  /** From the pack's before-hook to its after-hook: every hook inside it, and the tool. */
  readonly durationMs: number;
  /** Every decision of the hooks inside the pack, in trace order. */
  readonly hooks: readonly HookDecision[];
  /** What the `context` option added (the deciding rule, the client, …), when it added anything. */
  readonly context?: Readonly<Record<string, string | number | boolean>>;
  /** Present (true) when the redaction function failed: the fields it failed on read `[redaction failed]`. */
  readonly redactionFailed?: true;
}

/** What a redaction function failed on is replaced by this, never written as it was. */
export const REDACTION_FAILED = "[redaction failed]";

const UNSERIALISABLE = "[unserialisable]";

const bigintsAsStrings = (_key: string, v: unknown): unknown => (typeof v === "bigint" ? v.toString() : v);

// A replacer takes JSON.stringify off its fast path: it is only used for the inputs that need it (bigints).
function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
    return JSON.stringify(value, bigintsAsStrings);
  }
}

function codeOf(status: CallStatus, error: unknown): { code?: string } {
  const code = status === "error" ? toolwareCode(error) : undefined;
  return code === undefined ? {} : { code };
}

/** Builds records with one redaction function and one set of limits. @internal */
export class RecordBuilder {
  readonly #redact: (value: unknown) => unknown;
  readonly #maxInput: number;
  readonly #maxResult: number;
  /** What the redaction function threw (or returned instead of a string) during the last `line`. */
  failure: unknown = undefined;
  /** What the context function threw during the last `line`. */
  contextFailure: unknown = undefined;
  readonly #context: ((ctx: ToolCallHookContext) => AuditContext | undefined) | undefined;
  #failed = false;

  constructor(
    redact: (value: unknown) => unknown,
    maxInput: number,
    maxResult: number,
    context?: (ctx: ToolCallHookContext) => AuditContext | undefined,
  ) {
    this.#context = context;
    this.#redact = redact;
    this.#maxInput = maxInput;
    this.#maxResult = maxResult;
  }

  #text(text: string, max: number): string {
    try {
      const clean = this.#redact(text);
      if (typeof clean === "string") return truncate(clean, max);
      this.#fail(
        new ToolwareError("TOOLWARE_INVALID_RETURN", `audit: redact returned ${typeof clean} for a text, not a string`),
      );
    } catch (error) {
      this.#fail(error);
    }
    return REDACTION_FAILED;
  }

  // The input's JSON as it goes into the line: the value itself, or a string when it is cut or cannot be written.
  #input(input: unknown): string {
    let clean: unknown;
    try {
      clean = this.#redact(input);
    } catch (error) {
      this.#fail(error);
      return JSON.stringify(REDACTION_FAILED);
    }
    let json: string | undefined;
    try {
      json = jsonOf(clean);
    } catch {
      return JSON.stringify(UNSERIALISABLE);
    }
    if (json === undefined) return "null";
    return json.length > this.#maxInput ? JSON.stringify(truncate(json, this.#maxInput)) : json;
  }

  // Only own string, number and boolean values are kept: the line stays flat, whatever the function returned.
  #contextOf(ctx: ToolCallHookContext): { context?: Record<string, string | number | boolean> } {
    if (this.#context === undefined) return {};
    let given: unknown;
    try {
      given = this.#context(ctx);
    } catch (error) {
      this.contextFailure = error;
      return {};
    }
    if (given === null || typeof given !== "object") return {};
    const out: Record<string, string | number | boolean> = {};
    for (const [key, value] of Object.entries(given)) {
      if (typeof value === "string") out[key] = this.#text(value, this.#maxResult);
      else if (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) out[key] = value;
    }
    return Object.keys(out).length === 0 ? {} : { context: out };
  }

  #fail(error: unknown): void {
    if (!this.#failed) this.failure = error;
    this.#failed = true;
  }

  /** The record of a call that ended, as one JSON line. */
  line(ctx: ToolCallHookContext, startedAt: number, endedAt: number): string {
    this.#failed = false;
    this.failure = undefined;
    this.contextFailure = undefined;
    const status = ctx.status;
    const reason = ctx.blockReason;
    const head: Omit<
      AuditRecord,
      "input" | "status" | "toolRan" | "reason" | "error" | "result" | "durationMs" | "hooks"
    > = {
      v: 1,
      time: new Date(startedAt).toISOString(),
      callId: ctx.callId,
      tool: ctx.toolName,
      agent: ctx.agent?.role ?? null,
      task: ctx.task === undefined ? null : this.#text(ctx.task.description, this.#maxResult),
    };
    const input = this.#input(ctx.toolInput);
    const tail: Omit<AuditRecord, keyof typeof head | "input"> = {
      status,
      toolRan: ctx.toolRan,
      reason: status === "blocked" && reason !== undefined ? this.#text(reason, this.#maxResult) : null,
      error: status === "error" ? this.#text(messageOf(ctx.error), this.#maxResult) : null,
      ...codeOf(status, ctx.error),
      result: this.#text(ctx.toolResult ?? "", this.#maxResult),
      durationMs: Math.round((endedAt - startedAt) * 1000) / 1000,
      hooks: hookDecisions(ctx.trace, (text) => this.#text(text, this.#maxResult), policyDecider(ctx.state)),
      ...this.#contextOf(ctx),
    };
    const rest = JSON.stringify(this.#failed ? { ...tail, redactionFailed: true } : tail);
    // The input's JSON goes in as it is: parsing it back only to write it again would double the cost of a line.
    return `${JSON.stringify(head).slice(0, -1)},"input":${input},${rest.slice(1)}`;
  }
}
