import type { ToolCallHookContext } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import type { LoopScopeRef } from "./store.js";

// The most named scopes a guard keeps in this process: a caller that invents a new name per call must not grow
// memory without bound. The least recently used name is forgotten first (its streak and window start again).
const MAX_NAMED = 10_000;

/**
 * Scopes named by a `key` function: `key:<name>` across processes (no agent, crew or global id starts so), and one
 * owner object per name in this one, so the in-memory store keeps each name's calls apart. @internal
 */
export function namedScopes(key: (ctx: ToolCallHookContext) => string): {
  nameOf(ctx: ToolCallHookContext): string;
  refOf(name: string): LoopScopeRef;
} {
  const owners = new Map<string, LoopScopeRef>();
  return {
    nameOf(ctx) {
      const name: unknown = key(ctx);
      if (typeof name !== "string") {
        throw packTypeError(
          "TOOLWARE_INVALID_RETURN",
          `toolware/loop-guard: \`key\` must return a string, got ${shown(name)}`,
        );
      }
      return name;
    },
    refOf(name) {
      let ref = owners.get(name);
      if (ref !== undefined) owners.delete(name);
      else ref = { id: `key:${name}`, owner: {} };
      owners.set(name, ref);
      if (owners.size > MAX_NAMED) owners.delete(owners.keys().next().value as string);
      return ref;
    },
  };
}
