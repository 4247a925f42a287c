import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

// A transport that reads lines (stdio) reports a line it cannot read to `onerror` and drops it: a SyntaxError for
// one that is not JSON, a schema error (with `issues`) for JSON that is not one JSON-RPC message.
function replyTo(error: unknown): JSONRPCMessage | undefined {
  const fail = (code: number, message: string) => ({ jsonrpc: "2.0", id: null, error: { code, message } }) as never;
  if (error instanceof SyntaxError) return fail(ErrorCode.ParseError, "Parse error: the message is not JSON");
  if (Array.isArray((error as { issues?: unknown } | null)?.issues)) {
    return fail(
      ErrorCode.InvalidRequest,
      "Invalid Request: not a JSON-RPC 2.0 message (a request needs jsonrpc, id and method; batches are not supported)",
    );
  }
  return undefined;
}

/**
 * A client's transport as the gateway serves it: a message it could not read is answered with a JSON-RPC error
 * (id null, as JSON-RPC asks when the id cannot be known) instead of silence, and the session goes on. @internal
 */
export function answerMalformed(inner: Transport): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
    setProtocolVersion: (version) => inner.setProtocolVersion?.(version),
  };
  inner.onmessage = (message, extra) => outer.onmessage?.(message, extra);
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error) => {
    const reply = replyTo(error);
    if (reply !== undefined) void inner.send(reply).catch(() => undefined);
    outer.onerror?.(error);
  };
  Object.defineProperty(outer, "sessionId", { get: () => inner.sessionId, enumerable: true });
  return outer;
}
