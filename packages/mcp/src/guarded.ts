import { ToolwareTypeError } from "@toolware/core";

// Kept on the object itself as well as here: a Proxy of a guarded client, or a second copy of this
// package, would otherwise look unguarded and stack a second chain on the same calls.
const MARK = Symbol.for("@toolware/mcp.guarded");
const guarded = new WeakSet<object>();

function marked(target: object): boolean {
  try {
    return guarded.has(target) || Reflect.get(target, MARK) === true;
  } catch {
    return false;
  }
}

/**
 * Marks a client or server as guarded, or refuses one that already is (`TOOLWARE_MCP_ALREADY_GUARDED`):
 * its calls would run two chains (a limit counted twice, two audit lines a call).
 * @internal
 */
export function claimGuard(target: object, what: "client" | "server"): void {
  if (marked(target)) {
    throw new ToolwareTypeError(
      "TOOLWARE_MCP_ALREADY_GUARDED",
      `this MCP ${what} is already guarded: its calls would run two chains (guard it once, with one ToolHooks)`,
    );
  }
  Object.defineProperty(target, MARK, { value: true, configurable: false, enumerable: false, writable: false });
  guarded.add(target);
}
