import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

type Handler = (request: unknown, extra: unknown) => unknown;

/**
 * Makes the server answer a request whose params do not fit its method's schema (`tools/call` with a number for a
 * name) with JSON-RPC's `Invalid params` (-32602) rather than the SDK's `Internal error`: the client sent it wrong,
 * nothing broke. Wraps each handler registered from now on; an SDK without the handler map is left as it is. @internal
 */
export function answerInvalidParams(server: Server): void {
  const handlers: unknown = Reflect.get(server, "_requestHandlers");
  if (!(handlers instanceof Map)) return;
  const set = handlers.set.bind(handlers);
  handlers.set = (method: string, handler: Handler) =>
    set(method, (request: unknown, extra: unknown) => {
      try {
        return handler(request, extra);
      } catch (error) {
        const issues = (error as { issues?: unknown } | null)?.issues;
        if (!Array.isArray(issues)) throw error;
        const said = issues
          .slice(0, 5)
          .map((i: { path?: unknown[]; message?: unknown }) => `${(i.path ?? []).join(".")}: ${String(i.message)}`);
        throw new McpError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${said.join("; ").slice(0, 500)}`);
      }
    });
}
