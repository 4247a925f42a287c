import type { AgentFilter, HookOptions } from "@toolware/core";
import { type ToolSelector, toolFilter } from "./tool-selector.js";

/**
 * Hook options of an observer pack: fail open, at the pack's priority, limited
 * to the tools and agents it was given (omitted filters stay absent). `prefix` starts the message of a bad `tools`.
 *
 * @example
 * ```ts
 * const hookOptions = observerOptions(options, 1000, "toolware/analytics");
 * ```
 */
export function observerOptions(
  options: { priority?: number; tools?: ToolSelector; agents?: AgentFilter },
  defaultPriority: number,
  prefix: string,
): HookOptions & { onError: "continue"; priority: number } {
  return {
    onError: "continue",
    priority: options.priority ?? defaultPriority,
    ...(options.tools === undefined ? {} : { tools: toolFilter(options.tools, `${prefix}: tools`) }),
    ...(options.agents === undefined ? {} : { agents: options.agents }),
  };
}
