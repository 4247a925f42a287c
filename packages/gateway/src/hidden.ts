import { deniedOutright, type Tool } from "./catalog.js";
import type { GatewayOptions } from "./contract.js";

type Policy = NonNullable<GatewayOptions["policy"]>;

/**
 * Whether the policy denies a listed tool outright, asked once per tool and policy version: every `tools/call` checks
 * it, and explaining the whole policy on each call cost more than the rest of the gateway's own work. A policy that
 * tells no version (a bare `{ explain }`) is asked every time, so an edit is never missed. @internal
 */
export function hiddenByPolicy(policy: Policy): (tool: Tool) => boolean {
  const version: unknown = (policy as { version?: unknown }).version;
  if (typeof version !== "function") return (tool) => deniedOutright(policy, tool);
  const known = new WeakMap<Tool, { readonly version: number; readonly hidden: boolean }>();
  return (tool) => {
    const now: unknown = version.call(policy);
    if (typeof now !== "number") return deniedOutright(policy, tool);
    const seen = known.get(tool);
    if (seen !== undefined && seen.version === now) return seen.hidden;
    const hidden = deniedOutright(policy, tool);
    known.set(tool, { version: now, hidden });
    return hidden;
  };
}
