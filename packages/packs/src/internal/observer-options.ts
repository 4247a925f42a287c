import { type AgentFilter, type HookOptions, normalizeName } from "@toolware/core";
import { packTypeError, shown } from "./errors.js";
import { type ToolSelector, toolFilter } from "./tool-selector.js";

/**
 * Refuses an `agents` filter the core would refuse only when the pack is registered: the factory
 * promises to check every option when it is called. Takes what the core takes: a role name or glob,
 * a RegExp, a non-empty list of those, or a predicate.
 *
 * @example
 * ```ts
 * checkAgents(options.agents, "toolware/analytics"); // throws for agents: 42
 * ```
 */
export function checkAgents(agents: unknown, prefix: string): void {
  if (agents === undefined || typeof agents === "function") return;
  const list = Array.isArray(agents);
  const items = list ? (agents as unknown[]) : [agents];
  if (list && items.length === 0) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${prefix}: \`agents\` is an empty list, so the pack would never run`,
    );
  }
  items.forEach((item, i) => {
    let fine = typeof item === "string" && normalizeName(item) !== "";
    try {
      fine ||= item instanceof RegExp;
    } catch {
      // A Proxy whose getPrototypeOf trap throws is no RegExp.
    }
    if (!fine) {
      throw packTypeError(
        "TOOLWARE_INVALID_OPTION",
        `${prefix}: \`agents${list ? `[${i}]` : ""}\` must be a role name, a glob or a RegExp (or the whole filter a predicate), got ${typeof item === "string" ? "a name that normalises to nothing" : shown(item)}`,
      );
    }
  });
}

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
  checkAgents(options.agents, prefix);
  return {
    onError: "continue",
    priority: options.priority ?? defaultPriority,
    ...(options.tools === undefined ? {} : { tools: toolFilter(options.tools, `${prefix}: tools`) }),
    ...(options.agents === undefined ? {} : { agents: options.agents }),
  };
}
