import { messageOf, type ToolCallHookContext, ToolwareTypeError, toolwareCode } from "@toolware/core";
import { formatIssue, type PolicyEvent, PolicyLoadError } from "@toolware/policy";
import { gatewayCall } from "./context.js";
import type { GatewayEvent } from "./contract.js";

/** The span attributes {@link gatewaySpanAttributes} sets. */
export const GATEWAY_ATTR = Object.freeze({
  session: "toolware.gateway.session",
  upstream: "toolware.gateway.upstream",
  exposedName: "toolware.gateway.exposed_name",
  clientName: "toolware.gateway.client.name",
  clientVersion: "toolware.gateway.client.version",
  rule: "toolware.policy.rule",
  effect: "toolware.policy.effect",
  policyVersion: "toolware.policy.version",
});

/**
 * The attributes of a gateway call's span, for `otelTracing({ attributes: gatewaySpanAttributes })`: the session,
 * the upstream, the name the client called, the client's `clientInfo`, and the policy's deciding rule, effect and
 * version (read when the call ends). Empty outside a gateway call.
 *
 * @example
 * ```ts
 * hooks.use(otelTracing({ attributes: gatewaySpanAttributes }));
 * // span "execute_tool read_text_file" { toolware.gateway.upstream: "fs", toolware.policy.rule: "reads", … }
 * ```
 */
export function gatewaySpanAttributes(ctx: ToolCallHookContext): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  const call = gatewayCall(ctx);
  if (call !== undefined) {
    out[GATEWAY_ATTR.session] = call.session;
    out[GATEWAY_ATTR.upstream] = call.upstream;
    out[GATEWAY_ATTR.exposedName] = call.exposedName;
    if (call.client !== undefined) {
      out[GATEWAY_ATTR.clientName] = call.client.name;
      out[GATEWAY_ATTR.clientVersion] = call.client.version;
    }
  }
  const decision = ctx.state.policy;
  if (decision !== undefined) {
    out[GATEWAY_ATTR.rule] = decision.rule;
    out[GATEWAY_ATTR.effect] = decision.effect;
    out[GATEWAY_ATTR.policyVersion] = decision.version;
  }
  return out;
}

/** Fields of one log record: JSON values, as pino writes them. */
export type GatewayLogFields = Readonly<Record<string, unknown>>;

/** A structured logger: pino's, or anything with pino's `(fields, message)` order. */
export interface GatewayLogger {
  info(fields: GatewayLogFields, message: string): void;
  warn(fields: GatewayLogFields, message: string): void;
  error(fields: GatewayLogFields, message: string): void;
}

type Level = "info" | "warn" | "error";

// An error as log data: its message and stable code, never its stack or own fields (they may hold arguments).
function errorData(error: unknown): { message: string; code?: string } {
  const code = toolwareCode(error);
  return code === undefined ? { message: messageOf(error) } : { message: messageOf(error), code };
}

function ofPolicy(event: PolicyEvent): [Level, GatewayLogFields, string] | undefined {
  switch (event.type) {
    case "reload": {
      const { type: _type, ...fields } = event;
      return ["info", { event: "policy-reload", ...fields }, `policy version ${event.version} in force`];
    }
    case "reload-error": {
      const error = event.error;
      const problems =
        error instanceof PolicyLoadError
          ? error.issues.map((i) => ({ file: i.file, line: i.line, column: i.column, problem: formatIssue(i) }))
          : [{ problem: messageOf(error) }];
      return [
        "error",
        { event: "policy-reload-error", version: event.version, error: errorData(error), problems },
        `the policy edit (version ${event.version}) is refused, the last good policy stays in force`,
      ];
    }
    case "shadow": {
      const { type: _type, ...fields } = event;
      return ["warn", { event: "policy-shadow", ...fields }, `shadow ${event.effect} ${event.toolName}`];
    }
    default:
      // A decision is in the call's span and audit line; a log line per call is the gateway's `call` event.
      return undefined;
  }
}

function ofGateway(event: GatewayEvent): [Level, GatewayLogFields, string] {
  const { type, ...rest } = event as GatewayEvent & { error?: unknown };
  const fields: Record<string, unknown> = { event: type, ...rest };
  if ("error" in rest) fields.error = errorData(rest.error);
  switch (event.type) {
    case "upstream-error":
      return ["error", fields, `upstream ${event.upstream}: ${messageOf(event.error)}`];
    case "upstream-closed":
      return ["warn", fields, `upstream ${event.upstream} closed`];
    case "refused":
      return ["warn", fields, `refused ${event.tool}: ${event.reason}`];
    case "call":
      return [event.isError ? "warn" : "info", fields, `call ${event.tool}`];
    case "draining":
      return ["info", fields, `draining ${event.inFlight} call(s) in flight`];
    default:
      return ["error" in rest ? "error" : "info", fields, type.replaceAll("-", " ")];
  }
}

const POLICY_TYPES = new Set(["decision", "shadow", "reload", "reload-error"]);

/**
 * A listener that writes every gateway event (`createGateway({ onEvent })`) and every policy event
 * (`watchPolicy(file, { onEvent })`) to a structured logger, one record each: `event` names it, the rest of its
 * fields follow (an error as `error: { message, code }`), a refused policy edit with its `problems` and their lines.
 * Levels: `error` for upstream errors and refused edits, `warn` for refused calls, failed calls, shadow decisions and
 * closed upstreams, `info` for the rest. A logger that throws is ignored: logging never changes a call.
 *
 * @example
 * ```ts
 * const log = gatewayLog(pino(pino.destination(2)));
 * const policy = await watchPolicy("toolware.policy.yaml", { onEvent: log });
 * const gateway = createGateway({ upstreams, hooks: new ToolHooks().use(policy), policy, onEvent: log });
 * ```
 */
export function gatewayLog(logger: GatewayLogger): (event: GatewayEvent | PolicyEvent) => void {
  if (
    logger === null ||
    typeof logger !== "object" ||
    (["info", "warn", "error"] as const).some((l) => typeof logger[l] !== "function")
  ) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      "gatewayLog(): `logger` must have info, warn and error functions (a pino logger)",
    );
  }
  return function logGatewayEvent(event) {
    try {
      const record = POLICY_TYPES.has(event.type) ? ofPolicy(event as PolicyEvent) : ofGateway(event as GatewayEvent);
      if (record !== undefined) logger[record[0]](record[1], record[2]);
    } catch {
      // a logger's failure is its own
    }
  };
}

/**
 * The gateway's part of an audit line's `context`, for `watchPolicy(file, { auditContext: gatewayAuditContext })`:
 * the client's name and version, the upstream, the name the client called and the session (the policy adds the
 * deciding rule itself). Empty outside a gateway call.
 *
 * @example
 * ```ts
 * const policy = await watchPolicy("toolware.policy.yaml", { auditContext: gatewayAuditContext });
 * // {"tool":"read_text_file",…,"context":{"rule":"reads","effect":"allow","policyVersion":1,"client":"claude-ai",…}}
 * ```
 */
export function gatewayAuditContext(ctx: ToolCallHookContext): Record<string, string> {
  const call = gatewayCall(ctx);
  if (call === undefined) return {};
  const out: Record<string, string> = { upstream: call.upstream, exposedName: call.exposedName, session: call.session };
  if (call.client !== undefined) {
    out.client = call.client.name;
    out.clientVersion = call.client.version;
  }
  return out;
}
