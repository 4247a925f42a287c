import { AsyncLocalStorage } from "node:async_hooks";
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import {
  type HumanInputProvider,
  type HumanInputRequest,
  HumanInputUnavailableError,
  type ToolCallHookContext,
  ToolwareTypeError,
} from "@toolware/core";
import { elicitedAnswer } from "@toolware/mcp";
import type { GatewayCallInfo } from "./contract.js";

/** A call the gateway runs, as the hooks of its chain can reach it. @internal */
export interface RunningCall extends GatewayCallInfo {
  /** Asks the client that made the call; undefined when it did not declare elicitation. */
  readonly elicit: ((request: HumanInputRequest) => Promise<ElicitResult>) | undefined;
  /** The arguments as the client sent them: what an inbox approval binds. */
  readonly input?: unknown;
}

const running = new AsyncLocalStorage<RunningCall>();

/** Runs a forwarded tools/call as that call, so its hooks can see who made it. @internal */
export function asGatewayCall<T>(call: RunningCall, run: () => T): T {
  return running.run(call, run);
}

/** The gateway call running now, with what only the gateway's own providers may use. @internal */
export function runningCall(): RunningCall | undefined {
  return running.getStore();
}

/**
 * The gateway call a hook runs for: the client session, the upstream, the name the client called and the client's
 * `clientInfo`; undefined outside a gateway call.
 *
 * @example
 * ```ts
 * const policy = await loadPolicy("toolware.policy.yaml", { caller: (ctx) => gatewayCall(ctx)?.client?.name });
 * ```
 */
export function gatewayCall(ctx: ToolCallHookContext): GatewayCallInfo | undefined {
  const call = running.getStore();
  // The chain's own context must be an MCP client call: a tool the hook runs by itself is not the gateway's.
  if (call === undefined || ctx.framework?.name !== "mcp-client") return undefined;
  const { session, upstream, exposedName, client } = call;
  return { session, upstream, exposedName, client };
}

/**
 * A human-input provider that asks the person behind the gateway's client, through MCP elicitation, for the call
 * being approved. A client without elicitation, a declined or cancelled form, or a question asked outside a gateway
 * call throws `HumanInputUnavailableError`, which the approval pack turns into a denial.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks({ humanInput: gatewayElicitation() });
 * ```
 */
export function gatewayElicitation(options: { readonly timeoutMs?: number } = {}): HumanInputProvider {
  if (options === null || typeof options !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "gatewayElicitation() options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (key !== "timeoutMs") {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `gatewayElicitation(): unknown option \`${key}\` (allowed: timeoutMs)`,
      );
    }
  }
  const { timeoutMs = 180_000 } = options;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      "gatewayElicitation(): `timeoutMs` must be a positive whole number",
    );
  }
  return async function gatewayAsk(request) {
    const call = running.getStore();
    if (call === undefined) {
      throw new HumanInputUnavailableError(`cannot ask "${request.prompt}": not a call made through the gateway`);
    }
    if (call.elicit === undefined) {
      throw new HumanInputUnavailableError(`cannot ask "${request.prompt}": the client does not support elicitation`);
    }
    const elicit = call.elicit;
    // The MCP adapter reads the answer (declined, cancelled, no text: a denial), as for a guarded server's calls.
    return elicitedAnswer(() =>
      elicit({ ...request, signal: AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]) }),
    );
  };
}
