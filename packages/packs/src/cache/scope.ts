import type { ToolCallHookContext } from "@toolware/core";
import { packTypeError } from "../internal/errors.js";
import { agentScopeId, crewScopeId } from "../internal/scope-id.js";
import type { CacheScope } from "./options.js";

// The scope goes after the input, so a tool's entries still share the `tool + SEP` prefix.
/** The part of a cache key that keeps one scope's entries from another's; undefined for one global cache. */
export function scopeFunction(scope: CacheScope | undefined): ((ctx: ToolCallHookContext) => string) | undefined {
  switch (scope) {
    case undefined:
    case "global":
      return undefined;
    case "agent":
      return (ctx) => agentScopeId(ctx.agent);
    case "crew":
      return (ctx) => crewScopeId(ctx.crew);
    default:
      return (ctx) => {
        const s: unknown = scope(ctx);
        if (typeof s !== "string") {
          throw packTypeError(
            "TOOLWARE_INVALID_RETURN",
            `toolware/cache: \`scope\` returned ${typeof s}, not a string`,
          );
        }
        return `fn:${s}`;
      };
  }
}
