import type { ToolCallHookContext } from "@toolware/core";
import { ToolwareTypeError } from "@toolware/core";
import type { PolicyStores } from "./options.js";

// Rate-limit keys and loop-guard scopes a file names by who calls (`caller`: a gateway's client) and through which
// upstream (`upstream`): the `caller` and `upstream` options of loadPolicy answer them per call.

type Part = "tool" | "caller" | "upstream";
type Who = Pick<PolicyStores, "caller" | "upstream"> | undefined;

/** The rate-limit `key` values the policy turns into key functions, and the parts each counts by. */
const RATE_LIMIT_KEYS: Readonly<Record<string, readonly Part[]>> = {
  caller: ["caller"],
  "tool+caller": ["tool", "caller"],
  upstream: ["upstream"],
  "tool+upstream": ["tool", "upstream"],
  "caller+upstream": ["caller", "upstream"],
};

/** The loop-guard `scope` values the policy turns into the guard's `key` function. */
const LOOP_SCOPES: Readonly<Record<string, readonly Part[]>> = {
  caller: ["caller"],
  upstream: ["upstream"],
  "caller+upstream": ["caller", "upstream"],
};

// An unknown caller or upstream (no option, or it answered undefined) is "": those calls share one count. Anything
// else that is no string fails the call, as a throw does: a count must never be keyed by a value nobody meant.
function partOf(part: Part, who: Who, ctx: ToolCallHookContext): string {
  if (part === "tool") return ctx.toolName;
  const value: unknown = who?.[part]?.(ctx);
  if (value === undefined) return "";
  if (typeof value !== "string") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_RETURN",
      `loadPolicy: the \`${part}\` option must return a string or undefined, got ${typeof value}`,
    );
  }
  return value;
}

// One part is the name itself; several are a JSON tuple, so no two names put together can read as another pair.
function keyFunction(name: string, parts: readonly Part[], who: Who): (ctx: ToolCallHookContext) => string {
  const [only] = parts;
  if (parts.length === 1 && only !== undefined) return (ctx) => `${name}:${partOf(only, who, ctx)}`;
  return (ctx) => `${name}:${JSON.stringify(parts.map((p) => partOf(p, who, ctx)))}`;
}

type Data = Readonly<Record<string, unknown>>;

/** A file's rate-limit options as the pack takes them: a caller or upstream key becomes its key function. @internal */
export function rateLimitOptions(o: Data, who: Who): Data {
  const parts = typeof o.key === "string" ? RATE_LIMIT_KEYS[o.key] : undefined;
  return parts === undefined ? o : { ...o, key: keyFunction(o.key as string, parts, who) };
}

/** A file's loop-guard options as the pack takes them: a caller or upstream scope becomes the guard's `key`. @internal */
export function loopGuardOptions(o: Data, who: Who): Data {
  const parts = typeof o.scope === "string" ? LOOP_SCOPES[o.scope] : undefined;
  if (parts === undefined) return o;
  const { scope, ...rest } = o;
  return { ...rest, key: keyFunction(scope as string, parts, who) };
}
