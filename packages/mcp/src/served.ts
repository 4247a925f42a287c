import type { Tool } from "@toolware/core";

// serveTool's handlers, mapped to the toolware tools behind them, so a guard runs the tool itself.
const served = new WeakMap<object, Tool<Record<string, unknown>, unknown>>();

/** @internal */
export function markServed(handler: object, tool: Tool<Record<string, unknown>, unknown>): void {
  served.set(handler, tool);
}

/** @internal */
export function servedTool(handler: object): Tool<Record<string, unknown>, unknown> | undefined {
  return served.get(handler);
}
