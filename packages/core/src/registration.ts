import { ToolwareTypeError } from "./errors.js";
import { type CompiledFilter, compileOptions, mergeFilters } from "./filter.js";
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

function hookName(fn: HookFunction, kind: HookKind, position: number): string {
  const own = fn.name.replace(/^bound /, "");
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
  let filter = compileOptions(options);
  if (extra !== undefined) filter = mergeFilters(filter, extra);
  const id = ++nextId;
  const name = options?.name ?? hookName(fn, kind, position);
  const info: HookInfo = Object.freeze({
    id,
    name,
    kind,
    layer,
    priority: options?.priority ?? 0,
    onError: options?.onError,
    timeoutMs: options?.timeoutMs,
    tools: options?.tools,
    agents: options?.agents,
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
    options,
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
  const outer = compileOptions(options);
  return pack.hooks.map((spec, index) => {
    const own = spec.options ?? {};
    // `{ kind, fn: () => … }` names the function "fn", which says nothing: use its place in the pack instead.
    const fnName = spec.fn.name === "fn" ? "" : spec.fn.name.replace(/^bound /, "");
    const prefix = options?.name ?? pack.name;
    const part = own.name ?? (fnName || `${spec.kind}#${index}`);
    // "rate-limit:rateLimit" says the same thing twice.
    const merged: HookOptions = {
      ...own,
      name: normalizeName(part) === normalizeName(prefix) ? prefix : `${prefix}:${part}`,
    };
    if (options?.priority !== undefined) merged.priority = options.priority;
    if (options?.onError !== undefined) merged.onError = options.onError;
    if (options?.timeoutMs !== undefined) merged.timeoutMs = options.timeoutMs;
    return createRegistration(layer, position, spec.kind, spec.fn as HookFunction, merged, pack, outer);
  });
}
