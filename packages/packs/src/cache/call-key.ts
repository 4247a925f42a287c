import type { ToolCallHookContext, ToolInput } from "@toolware/core";
import { keyJson, readInput } from "./key.js";
import { KeyMemo } from "./key-memo.js";
import type { CacheOptions } from "./options.js";

/** Between the tool name, the input's canonical JSON and the scope in a key. */
export const SEP = "\u0000";

/** How a cache pack keys calls. @internal */
export interface CacheKeys {
  /** The key of `input` for a tool, without a scope (what invalidate() looks for). */
  keyOf(toolName: string, input: ToolInput): string;
  /** The call's key; throws (the call then bypasses the cache) when its input or scope has none. */
  callKey(ctx: ToolCallHookContext): string;
}

/** The key functions of one cache pack. @internal */
export function cacheKeys(
  keyInput: CacheOptions["keyInput"],
  scopeOf: ((ctx: ToolCallHookContext) => string) | undefined,
): CacheKeys {
  const keyOf = (toolName: string, input: ToolInput): string =>
    toolName + SEP + keyJson(keyInput === undefined ? input : keyInput(input, toolName));
  // A keyInput function may return anything (and write to the input): only the default key is memoised.
  const memo = keyInput === undefined ? new KeyMemo() : undefined;
  const inputKey = (ctx: ToolCallHookContext): string => {
    if (memo === undefined) return keyOf(ctx.toolName, ctx.toolInput);
    // The default key only reads the input (see readInput).
    const input = readInput(ctx);
    const known = memo.recall(ctx.toolName, input);
    if (known !== undefined) return known;
    return memo.remember(ctx.toolName, input, keyOf);
  };
  // The last scoped key, so a hot input of one scope also hands the store the same string each time.
  let lastKey: string | undefined;
  let lastScope: string | undefined;
  let lastScoped = "";
  const callKey = (ctx: ToolCallHookContext): string => {
    const key = inputKey(ctx);
    if (scopeOf === undefined) return key;
    let scope: string;
    try {
      scope = scopeOf(ctx);
    } catch (e) {
      // A broken scope function is a bug worth hearing about; the call still runs, uncached.
      ctx.reportError("cache.scope", e);
      throw e;
    }
    if (key === lastKey && scope === lastScope) return lastScoped;
    lastKey = key;
    lastScope = scope;
    lastScoped = key + SEP + scope;
    return lastScoped;
  };
  return { keyOf, callKey };
}
