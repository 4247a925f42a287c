import { type Span, SpanStatusCode } from "@opentelemetry/api";
import { messageOf, type ToolCallHookContext, ToolwareError, type TraceAction, type TraceEntry } from "@toolware/core";

/** Attribute names: the GenAI semantic conventions' where they have one, `toolware.*` for the rest. */
export const ATTR = Object.freeze({
  operationName: "gen_ai.operation.name",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolDescription: "gen_ai.tool.description",
  toolType: "gen_ai.tool.type",
  toolArguments: "gen_ai.tool.call.arguments",
  toolResult: "gen_ai.tool.call.result",
  errorType: "error.type",
  callId: "toolware.call.id",
  agentRole: "toolware.agent.role",
  status: "toolware.status",
  toolRan: "toolware.tool.ran",
  hookName: "toolware.hook.name",
  hookLayer: "toolware.hook.layer",
  hookKind: "toolware.hook.kind",
  hookPhase: "toolware.hook.phase",
  hookReason: "toolware.hook.reason",
});

/** The span event of each hook decision; `proceeded` records none. */
export const EVENT_NAMES: Readonly<Record<Exclude<TraceAction, "proceeded">, string>> = Object.freeze({
  blocked: "toolware.hook.blocked",
  "modified-input": "toolware.hook.modified_input",
  substituted: "toolware.hook.substituted",
  "modified-result": "toolware.hook.modified_result",
  failed: "toolware.hook.failed",
  "ignored-return": "toolware.hook.ignored_return",
  "format-failed": "toolware.tool.format_failed",
});

/** What `error.type` says of a blocked call (a block is a decision, not an exception: it has no class name). */
export const BLOCKED_ERROR_TYPE = "blocked";

/** Marks text a redaction function failed on: the text itself is never recorded then. */
export const REDACTION_FAILED = "[redaction failed]";

/** `error.type` of a thrown value: its class name, or `_OTHER` as the conventions say for the unknown. */
export function errorType(error: unknown): string {
  if (error instanceof Error && typeof error.name === "string" && error.name !== "") return error.name;
  return "_OTHER";
}

/** JSON for an attribute that never throws: bigints as strings, a cycle as a placeholder. */
export function safeJson(value: unknown): string {
  try {
    const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
    return json === undefined ? String(value) : json;
  } catch {
    return "[unserialisable]";
  }
}

/** Redacts text for a span; remembers the first failure so the middleware can report it once the span ended. */
export class Scrubber {
  failure: unknown = undefined;
  readonly #redact: ((text: string) => string) | undefined;

  constructor(redact: ((text: string) => string) | undefined) {
    this.#redact = redact;
  }

  text(text: string): string {
    if (this.#redact === undefined) return text;
    try {
      const clean = this.#redact(text);
      if (typeof clean === "string") return clean;
      this.failure ??= new ToolwareError(
        "TOOLWARE_INVALID_RETURN",
        `otel: redact returned ${typeof clean}, not a string`,
      );
    } catch (error) {
      this.failure ??= error;
    }
    return REDACTION_FAILED;
  }
}

function decisionEvent(span: Span, entry: TraceEntry, scrub: Scrubber): void {
  const action = entry.action;
  if (action === "proceeded") return;
  const attributes: Record<string, string> = {
    [ATTR.hookName]: entry.hook,
    [ATTR.hookLayer]: entry.layer,
    [ATTR.hookKind]: entry.kind,
    [ATTR.hookPhase]: entry.phase,
  };
  if (entry.reason !== undefined) attributes[ATTR.hookReason] = scrub.text(entry.reason);
  if (action === "failed") attributes[ATTR.errorType] = errorType(entry.error);
  span.addEvent(EVENT_NAMES[action], attributes);
}

/** Records how the call ended: decisions as events, then status, error type and the opted-in content. */
export function recordEnd(
  span: Span,
  ctx: ToolCallHookContext,
  from: number,
  scrub: Scrubber,
  capture: { arguments: boolean; result: boolean },
): void {
  const trace = ctx.trace;
  for (let i = from; i < trace.length; i++) decisionEvent(span, trace[i] as TraceEntry, scrub);
  const status = ctx.status;
  span.setAttribute(ATTR.status, status);
  span.setAttribute(ATTR.toolRan, ctx.toolRan);
  if (capture.arguments) span.setAttribute(ATTR.toolArguments, scrub.text(safeJson(ctx.toolInput)));
  if (capture.result && ctx.toolResult !== undefined) span.setAttribute(ATTR.toolResult, scrub.text(ctx.toolResult));
  if (status === "blocked") {
    span.setAttribute(ATTR.errorType, BLOCKED_ERROR_TYPE);
    const reason = ctx.blockReason;
    span.setStatus({ code: SpanStatusCode.ERROR, message: reason === undefined ? "blocked" : scrub.text(reason) });
  } else if (status === "error") {
    recordError(span, ctx.error, scrub);
  }
}

/** Marks the span failed by an error: the tool's, or one that made `invoke` reject. */
export function recordError(span: Span, error: unknown, scrub: Scrubber): void {
  const type = errorType(error);
  const message = scrub.text(messageOf(error));
  span.setAttribute(ATTR.errorType, type);
  // The exception event carries the message and stack: only when redaction leaves the message as it was.
  if (error instanceof Error && message === error.message) span.recordException(error);
  else span.addEvent("exception", { "exception.type": type, "exception.message": message });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}
