import type { Attributes, Tracer } from "@opentelemetry/api";
import { type AgentFilter, type ToolCallHookContext, type ToolFilter, ToolwareTypeError } from "@toolware/core";

/** Options of {@link otelTracing}. */
export interface OtelTracingOptions {
  /** Where spans go. Default `trace.getTracer("@toolware/otel")`: the globally registered provider, or a no-op. */
  tracer?: Tracer;
  /** Record the tool's input (after the hooks inside changed it) as `gen_ai.tool.call.arguments`. Needs `redact`. Default false. */
  captureArguments?: boolean;
  /** Record the agent-facing result as `gen_ai.tool.call.result`. Needs `redact`. Default false. */
  captureResult?: boolean;
  /**
   * Applied to every text taken from the call before it is recorded: captured arguments and results, block
   * reasons, error messages. Required when capturing; pass `(text) => text` to record them unchanged.
   */
  redact?: (text: string) => string;
  /**
   * The id recorded as `gen_ai.tool.call.id`: the agent framework's id of the tool call, when an adapter knows it.
   * Default `ctx.callId`, which is always recorded as `toolware.call.id` too.
   */
  callId?: (ctx: ToolCallHookContext) => string | undefined;
  /**
   * More attributes of the call's span, read when the call ends (after every hook inside decided), so they can
   * name what those hooks decided (the gateway's `gatewaySpanAttributes` adds the session, upstream, client and the
   * policy's deciding rule). A throw is reported through `onListenerError`; the span and the call go on without them.
   */
  attributes?: (ctx: ToolCallHookContext) => Attributes | undefined;
  /**
   * Chain position. Default 1200: outside the other packs (analytics at 1000, audit at 1100), so the span
   * covers every hook and shows each one's decision.
   */
  priority?: number;
  tools?: ToolFilter;
  agents?: AgentFilter;
}

/** The options after their defaults. @internal */
export interface ResolvedOptions {
  readonly tracer: Tracer | undefined;
  readonly captureArguments: boolean;
  readonly captureResult: boolean;
  readonly redact: ((text: string) => string) | undefined;
  readonly callId: ((ctx: ToolCallHookContext) => string | undefined) | undefined;
  readonly attributes: ((ctx: ToolCallHookContext) => Attributes | undefined) | undefined;
}

const PREFIX = "toolware/otel";
const OPTION_KEYS = new Set([
  "tracer",
  "captureArguments",
  "captureResult",
  "redact",
  "callId",
  "attributes",
  "priority",
  "tools",
  "agents",
]);

function flag(value: unknown, name: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`${name}\` must be true or false, got ${typeof value}`,
    );
  }
  return value;
}

function isTracer(value: unknown): value is Tracer {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Tracer).startSpan === "function" &&
    typeof (value as Tracer).startActiveSpan === "function"
  );
}

/** Checks the options at once, so a typo fails when the app starts, not on the first call. @internal */
export function resolveOptions(options: OtelTracingOptions): ResolvedOptions {
  if (options === null || typeof options !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: otelTracing() takes an options object`);
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `${PREFIX}: unknown option \`${key}\` (expected one of: ${[...OPTION_KEYS].join(", ")})`,
      );
    }
  }
  const { tracer, redact, callId, attributes, priority } = options;
  if (tracer !== undefined && !isTracer(tracer)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`tracer\` must be an OpenTelemetry Tracer (provider.getTracer(name))`,
    );
  }
  if (redact !== undefined && typeof redact !== "function") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: \`redact\` must be a function (text) => string`);
  }
  if (callId !== undefined && typeof callId !== "function") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: \`callId\` must be a function (ctx) => string`);
  }
  if (attributes !== undefined && typeof attributes !== "function") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`attributes\` must be a function (ctx) => attributes`,
    );
  }
  if (priority !== undefined && !Number.isFinite(priority)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`priority\` must be a finite number, got ${String(priority)}`,
    );
  }
  const captureArguments = flag(options.captureArguments, "captureArguments");
  const captureResult = flag(options.captureResult, "captureResult");
  if ((captureArguments || captureResult) && redact === undefined) {
    const what = captureArguments ? "captureArguments" : "captureResult";
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`${what}\` needs \`redact\`, so that no secret reaches a trace by default; pass (text) => text to record them unchanged`,
    );
  }
  return { tracer, captureArguments, captureResult, redact, callId, attributes };
}
