import { type Attributes, context, SpanKind, type Tracer, trace } from "@opentelemetry/api";
import { definePack, messageOf, type Next, type Pack, type ToolCallHookContext, ToolwareError } from "@toolware/core";
import { type OtelTracingOptions, resolveOptions } from "./options.js";
import { ATTR, recordEnd, recordError, Scrubber } from "./record.js";

export type { OtelTracingOptions } from "./options.js";
export { ATTR, BLOCKED_ERROR_TYPE, EVENT_NAMES, REDACTION_FAILED } from "./record.js";

/** The instrumentation scope of the default tracer. */
export const INSTRUMENTATION_NAME = "@toolware/otel";
/** This package's version, recorded as the instrumentation scope's version. */
export const INSTRUMENTATION_VERSION = "0.1.0";

/** The pack {@link otelTracing} returns. */
export type OtelTracingPack = Pack;

function startAttributes(ctx: ToolCallHookContext, callId: string): Attributes {
  const attributes: Attributes = {
    [ATTR.operationName]: "execute_tool",
    [ATTR.toolName]: ctx.toolName,
    [ATTR.toolCallId]: callId,
    [ATTR.toolType]: "function",
    [ATTR.callId]: ctx.callId,
  };
  const description = ctx.tool.description;
  if (typeof description === "string" && description !== "") attributes[ATTR.toolDescription] = description;
  const role = ctx.agent?.role;
  if (role !== undefined) attributes[ATTR.agentRole] = role;
  return attributes;
}

/**
 * One OpenTelemetry span per tool call, named `execute_tool <tool>` as the GenAI semantic conventions say for
 * tool execution: `gen_ai.operation.name`, `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.tool.description`;
 * an event per hook decision (blocked, modified input, substituted, modified result, failed) with the hook's name
 * and layer; status ERROR with `error.type` for blocked and failed calls. The span is a child of the active span
 * (an agent framework's step), and is the active span while the tool runs, so spans the tool starts nest under it.
 * Arguments and results are recorded only when asked for, through `redact`.
 *
 * It only touches the context inside its own middleware: calls made without it never meet a context manager.
 * An observer: it fails open, so a broken tracer never changes a call.
 *
 * @example
 * ```ts
 * hooks.use(otelTracing({ captureArguments: true, redact: createRedactor().text }));
 * // span "execute_tool web_search" { gen_ai.tool.name: "web_search", gen_ai.tool.call.id: "k3x9q1-00", … }
 * ```
 */
export function otelTracing(options: OtelTracingOptions = {}): OtelTracingPack {
  const resolved = resolveOptions(options);
  // A ProxyTracer when none is given: it follows a provider registered later, so packs can be built first.
  const tracer: Tracer = resolved.tracer ?? trace.getTracer(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
  const capture = { arguments: resolved.captureArguments, result: resolved.captureResult };
  const callIdOf = resolved.callId;
  const more = resolved.attributes;

  async function otel(ctx: ToolCallHookContext, next: Next): Promise<void> {
    const own = callIdOf?.(ctx);
    const callId = typeof own === "string" && own !== "" ? own : ctx.callId;
    const parent = context.active();
    const span = tracer.startSpan(
      `execute_tool ${ctx.toolName}`,
      { kind: SpanKind.INTERNAL, attributes: startAttributes(ctx, callId) },
      parent,
    );
    const from = ctx.trace.length;
    const scrub = new Scrubber(resolved.redact);
    let fatal: { error: unknown } | undefined;
    try {
      await context.with(trace.setSpan(parent, span), next);
    } catch (error) {
      // Only a "throw"-policy hook makes next() reject; it goes on to reject invoke.
      fatal = { error };
    }
    let extraFailure: { error: unknown } | undefined;
    try {
      if (span.isRecording()) {
        if (more !== undefined) {
          try {
            const extra = more(ctx);
            if (extra !== undefined) span.setAttributes(extra);
          } catch (error) {
            extraFailure = { error };
          }
        }
        if (fatal === undefined) recordEnd(span, ctx, from, scrub, capture);
        else recordError(span, fatal.error, scrub);
      }
    } finally {
      span.end();
    }
    if (scrub.failure !== undefined) {
      // The span is complete, with placeholders: the failure is reported without touching the call or its trace.
      ctx.reportError(
        "otel.redact",
        new ToolwareError("TOOLWARE_REDACT_FAILED", `otel: redact failed: ${messageOf(scrub.failure)}`, {
          cause: scrub.failure,
        }),
      );
    }
    if (extraFailure !== undefined) {
      ctx.reportError(
        "otel.attributes",
        new ToolwareError(
          "TOOLWARE_OTEL_ATTRIBUTES_FAILED",
          `otel: attributes failed: ${messageOf(extraFailure.error)}`,
          {
            cause: extraFailure.error,
          },
        ),
      );
    }
    if (fatal !== undefined) throw fatal.error;
  }

  return definePack({
    name: "otel",
    hooks: [
      {
        kind: "middleware",
        fn: otel,
        options: {
          onError: "continue",
          priority: options.priority ?? 1200,
          ...(options.tools === undefined ? {} : { tools: options.tools }),
          ...(options.agents === undefined ? {} : { agents: options.agents }),
        },
      },
    ],
  });
}
