import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

// The hints that would let a server talk a policy into less: "read-only" and "idempotent" can be what an allow rule
// matches, and `destructiveHint: false` or `openWorldHint: false` (or saying nothing, which the MCP adapter reads the
// same) escape what a deny rule matches. An untrusted server's word on them is dropped and MCP's defaults for a tool
// that claims nothing stand in: destructive, open-world, neither read-only nor idempotent.
function stricter(annotations: unknown): Record<string, unknown> {
  const given =
    annotations !== null && typeof annotations === "object" && !Array.isArray(annotations) ? annotations : {};
  const {
    readOnlyHint: _r,
    idempotentHint: _i,
    destructiveHint: _d,
    openWorldHint: _o,
    ...rest
  } = given as Record<string, unknown>;
  return { ...rest, destructiveHint: true, openWorldHint: true };
}

function filterMessage(message: JSONRPCMessage): JSONRPCMessage {
  const result = (message as { result?: unknown }).result;
  if (result === null || typeof result !== "object") return message;
  const tools = (result as { tools?: unknown }).tools;
  if (!Array.isArray(tools)) return message;
  const kept = tools.map((tool: unknown) => {
    if (tool === null || typeof tool !== "object") return tool;
    return { ...(tool as object), annotations: stricter((tool as { annotations?: unknown }).annotations) };
  });
  return { ...message, result: { ...(result as object), tools: kept } } as JSONRPCMessage;
}

/**
 * The transport of an untrusted upstream, as the guard under it sees it: every result that lists tools loses the
 * annotations that could loosen a rule. It sits below the MCP adapter's guard, so the policy's annotation cache and
 * the gateway's own listing both read the filtered hints. @internal
 */
export function untrustedTransport(inner: Transport): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
  };
  inner.onmessage = (message, extra) => outer.onmessage?.(filterMessage(message), extra);
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onclose = () => outer.onclose?.();
  Object.defineProperty(outer, "sessionId", { get: () => inner.sessionId, enumerable: true });
  return outer;
}
