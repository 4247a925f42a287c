import { AsyncLocalStorage } from "node:async_hooks";
import type { ToolHooks } from "@toolware/core";

/** The call a chain of this adapter is running for: its ToolHooks, tool name and tool-call id. */
interface Running {
  readonly hooks: ToolHooks;
  readonly toolName: string;
  readonly callId: string | undefined;
}

const running = new AsyncLocalStorage<Running>();

/**
 * True inside the chain `hooks` runs for this very call (same tool, same tool-call id): a second
 * guard of the same stack there (a guardTool-ed tool inside toolwareMiddleware, a second
 * toolwareMiddleware) must let the call through as it is, so the chain runs once per call. A guard
 * of another ToolHooks is another stack and runs its own chain. @internal
 */
export function runsFor(hooks: ToolHooks, toolName: string, callId: string | undefined): boolean {
  const call = running.getStore();
  return call !== undefined && call.hooks === hooks && call.toolName === toolName && call.callId === callId;
}

/** Runs `fn` (the chain of one call) marked as that call's. @internal */
export function within<T>(hooks: ToolHooks, toolName: string, callId: string | undefined, fn: () => T): T {
  return running.run({ hooks, toolName, callId }, fn);
}
