import type { AgentFilter, HookOptions, ToolFilter } from "@toolware/core";

/**
 * Hook options of an observer pack: fail open, at the pack's priority, limited
 * to the tools and agents it was given (omitted filters stay absent).
 *
 * @example
 * ```ts
 * const hookOptions = observerOptions(options, 1000);
 * ```
 */
export function observerOptions(
  options: { priority?: number; tools?: ToolFilter; agents?: AgentFilter },
  defaultPriority: number,
): HookOptions & { onError: "continue"; priority: number } {
  return {
    onError: "continue",
    priority: options.priority ?? defaultPriority,
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    ...(options.agents === undefined ? {} : { agents: options.agents }),
  };
}
