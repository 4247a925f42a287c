import type { ToolCallHookContext } from "@toolware/core";
import { packTypeError } from "../internal/errors.js";
import type { CacheScope } from "./options.js";

// The scope goes after the input, so a tool's entries still share the `tool + SEP` prefix.
/** The part of a cache key that keeps one scope's entries from another's; undefined for one global cache. */
export function scopeFunction(scope: CacheScope | undefined): ((ctx: ToolCallHookContext) => string) | undefined {
  switch (scope) {
    case undefined:
    case "global":
      return undefined;
    case "agent":
      // No colon when there is no agent or crew: no role or name can then share its entries.
      return (ctx) => (ctx.agent === undefined ? "agent" : `agent:${ctx.agent.role}`);
    case "crew":
      return (ctx) =>
        ctx.crew?.name === undefined ? (ctx.crew === undefined ? "crew" : "crew#") : `crew:${ctx.crew.name}`;
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
