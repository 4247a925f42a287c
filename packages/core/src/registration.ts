import { ToolwareTypeError } from "./errors.js";
import { type CompiledFilter, checkOptions, mergeFilters } from "./filter.js";
import { normalizeName } from "./names.js";
import { isPack, type Pack } from "./pack.js";
import type { HookErrorPolicy, HookFunction, HookInfo, HookKind, HookOptions, LayerKind } from "./types.js";

/** A hook as stored in a layer. @internal */
export interface Registration {
  readonly id: number;
  readonly kind: HookKind;
  readonly fn: HookFunction;
  readonly name: string;
  readonly layer: LayerKind;
  readonly priority: number;
  /** Registration order across all layers; ties are broken with it. */
  readonly seq: number;
  readonly onError: HookErrorPolicy | undefined;
  readonly timeoutMs: number | undefined;
  readonly filter: CompiledFilter;
  readonly options: HookOptions | undefined;
  readonly pack: Pack | undefined;
  readonly info: HookInfo;
}

let nextId = 0;
let nextSeq = 0;

/** A function's own name, "" when it has none a message could show (a getter that throws, a number). */
export function functionName(fn: HookFunction): string {
  let name: unknown;
  try {
    name = fn.name;
  } catch {
    return "";
  }
  return typeof name === "string" ? name.replace(/^bound /, "") : "";
}

function hookName(fn: HookFunction, kind: HookKind, position: number): string {
  const own = functionName(fn);
  return own === "" ? `${kind}#${position}` : own;
}

/**
 * Checks a hook and its options and describes it; `position` is where it lands in its layer (it
 * names an anonymous hook), `extra` the filter of the pack registration it comes with. @internal
 */
export function createRegistration(
  layer: LayerKind,
  position: number,
  kind: HookKind,
  fn: HookFunction,
  options: HookOptions | undefined,
  pack?: Pack,
  extra?: CompiledFilter,
): Registration {
  if (typeof fn !== "function") {
    const hint = isPack(fn) ? " (register a pack with use())" : "";
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_HOOK",
      `${kind === "after" ? "an" : "a"} ${kind} hook must be a function, got ${fn === null ? "null" : typeof fn}${hint}`,
    );
  }
  const checked = checkOptions(options);
  const values = checked.values;
  const filter = extra === undefined ? checked.filter : mergeFilters(checked.filter, extra);
  const id = ++nextId;
  const name = values.name ?? hookName(fn, kind, position);
  const info: HookInfo = Object.freeze({
    id,
    name,
    kind,
    layer,
    priority: values.priority ?? 0,
    onError: values.onError,
    timeoutMs: values.timeoutMs,
    tools: values.tools,
    agents: values.agents,
    pack: pack?.name,
    conditional: filter.predicates.length > 0,
    fn,
  });
  return {
    id,
    kind,
    fn,
    name,
    layer,
    priority: info.priority,
    seq: ++nextSeq,
    onError: info.onError,
    timeoutMs: info.timeoutMs,
    filter,
    options: options === undefined ? undefined : values,
    pack,
    info,
  };
}

/**
 * The registrations of every hook of `pack`, used with `options`: each hook is named after the
 * pack (or `options.name`), and the options given to `use()` narrow and override its own. @internal
 */
export function packRegistrations(
  layer: LayerKind,
  position: number,
  pack: Pack,
  options: HookOptions | undefined,
): Registration[] {
  const { values: given, filter: outer } = checkOptions(options);
  return pack.hooks.map((spec, index) => {
    const own = checkOptions(spec.options).values;
    // `{ kind, fn: () => … }` names the function "fn", which says nothing: use its place in the pack instead.
    const ownFnName = functionName(spec.fn as HookFunction);
    const fnName = ownFnName === "fn" ? "" : ownFnName;
    const prefix = given.name ?? pack.name;
    const part = own.name ?? (fnName || `${spec.kind}#${index}`);
    // "rate-limit:rateLimit" says the same thing twice.
    const merged: HookOptions = {
      ...own,
      name: normalizeName(part) === normalizeName(prefix) ? prefix : `${prefix}:${part}`,
    };
    if (given.priority !== undefined) merged.priority = given.priority;
    if (given.onError !== undefined) merged.onError = given.onError;
    if (given.timeoutMs !== undefined) merged.timeoutMs = given.timeoutMs;
    return createRegistration(layer, position, spec.kind, spec.fn as HookFunction, merged, pack, outer);
  });
}
