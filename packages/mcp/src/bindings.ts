import { type CallBindings, messageOf, type PerCallBindings, toolwareCode } from "@toolware/core";

/** Who makes a call, as an adapter's `bind` picks it for each call. */
export type McpBindings = PerCallBindings;

/** The framework names the adapters give `ctx.framework`. */
export type McpFrameworkName = "mcp-client" | "mcp-server";

/** The bindings an adapter hands to `invoke`. @internal */
export function callBindings(
  bound: McpBindings,
  signal: AbortSignal | undefined,
  callId: string,
  framework: { name: McpFrameworkName; context: unknown },
): CallBindings {
  return { ...bound, signal, callId, framework };
}

/** Why a call failed before its chain started, for the caller's text: the message, its cause and its code. @internal */
export function bindFailure(error: unknown): string {
  const cause = error instanceof Error && error.cause !== undefined ? `: ${messageOf(error.cause)}` : "";
  return `${messageOf(error)}${cause} (${toolwareCode(error) ?? "TOOLWARE_BIND_FAILED"})`;
}
