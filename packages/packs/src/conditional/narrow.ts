import {
  type AgentFilter,
  type ContextPredicate,
  definePack,
  type HookOptions,
  type HookSpec,
  normalizeName,
  type Pack,
  type ToolCallHookContext,
  type ToolFilter,
} from "@toolware/core";
import { packTypeError } from "../internal/errors.js";
import type { ToolSelector } from "../internal/tool-selector.js";

/**
 * The tools of `forTools`: names, globs (`db_*`), RegExps or tool objects, decided once per chain by the core, and
 * `{ tag }` / `{ destructive }`, answered once per tool (the vocabulary of every pack's `tools` option).
 */
export type ToolMatchers = Exclude<ToolSelector, (ctx: ToolCallHookContext) => boolean>;
/** The static part: what the core's `tools` filter decides once per chain. @internal */
export type NameMatchers = Exclude<ToolFilter, ContextPredicate>;
/** Agent roles, globs or RegExps: decided once per chain by the core. */
export type RoleMatchers = Exclude<AgentFilter, ContextPredicate>;

/** One extra condition to put on every hook of a pack. @internal */
export interface Narrowing {
  readonly tools?: NameMatchers;
  readonly agents?: RoleMatchers;
  readonly predicate?: ContextPredicate;
}

type Matchers = NameMatchers | RoleMatchers;
type Item = string | RegExp | { readonly name: string };
type NameTest = (raw: string, normalized: string) => boolean;

const GLOB = /[*?]/;

function itemsOf(m: Matchers): readonly Item[] {
  return (Array.isArray(m) ? m : [m]) as readonly Item[];
}

function globTest(normalized: string): NameTest {
  if (!GLOB.test(normalized)) return (_raw, name) => name === normalized;
  // Normalised names hold only [a-z0-9_*?]: nothing else to escape.
  const re = new RegExp(`^${normalized.replaceAll("*", ".*").replaceAll("?", ".")}$`);
  return (_raw, name) => re.test(name);
}

function itemTest(item: Item): NameTest {
  if (item instanceof RegExp) {
    const re = item.global || item.sticky ? new RegExp(item.source, item.flags.replace(/[gy]/g, "")) : item;
    return (raw, name) => re.test(raw) || re.test(name);
  }
  return globTest(normalizeName(typeof item === "string" ? item : item.name));
}

/** A per-call test with the core's matching rules (names compared normalised, globs, RegExps on both forms). */
function nameTest(m: Matchers): (raw: string) => boolean {
  const tests = itemsOf(m).map(itemTest);
  const normalized = new Map<string, string>();
  return (raw) => {
    let name = normalized.get(raw);
    if (name === undefined) {
      name = normalizeName(raw);
      normalized.set(raw, name);
    }
    for (const t of tests) if (t(raw, name)) return true;
    return false;
  };
}

const toolPredicate = (m: Matchers): ContextPredicate => {
  const test = nameTest(m);
  return (ctx) => test(ctx.toolName);
};

const agentPredicate = (m: Matchers): ContextPredicate => {
  const test = nameTest(m);
  return (ctx) => ctx.agent !== undefined && test(ctx.agent.role);
};

/** The normalised names a matcher accepts when it lists only exact names, else null. */
function exactNames(m: Matchers): string[] | null {
  const names: string[] = [];
  for (const item of itemsOf(m)) {
    if (item instanceof RegExp) return null;
    const name = normalizeName(typeof item === "string" ? item : item.name);
    if (GLOB.test(name)) return null;
    names.push(name);
  }
  return names;
}

/**
 * ANDs several static matchers of one slot. Exact names are intersected and filtered by globs
 * statically (both work on normalised names); RegExps (which also see the raw name) and
 * anything that cannot be intersected become per-call predicates. Null: nothing can match.
 */
function combine(statics: Matchers[], preds: ContextPredicate[], toPredicate: (m: Matchers) => ContextPredicate) {
  if (statics.length <= 1) return statics[0];
  const exact = statics.map(exactNames);
  let names: string[] | undefined;
  for (const set of exact) if (set !== null) names = names === undefined ? set : names.filter((n) => set.includes(n));
  if (names === undefined) {
    for (const m of statics.slice(1)) preds.unshift(toPredicate(m));
    return statics[0];
  }
  statics.forEach((m, i) => {
    if (exact[i] !== null) return;
    const items = itemsOf(m);
    if (items.some((item) => item instanceof RegExp)) preds.unshift(toPredicate(m));
    else {
      const tests = items.map(itemTest);
      names = (names as string[]).filter((n) => tests.some((t) => t(n, n)));
    }
  });
  return names.length === 0 ? null : [...new Set(names)];
}

function all(preds: readonly ContextPredicate[]): ContextPredicate {
  if (preds.length === 1) return preds[0] as ContextPredicate;
  return (ctx: ToolCallHookContext) => {
    for (const p of preds) if (!p(ctx)) return false;
    return true;
  };
}

/**
 * The options of a hook with one more condition. Static matchers stay in the `tools`/`agents`
 * slots (cached per chain); predicates go to a free slot (the core treats a predicate the same
 * in either). Null: the hook can never run.
 * @internal
 */
export function narrowOptions(options: HookOptions | undefined, add: Narrowing): HookOptions | null {
  const { tools, agents, ...rest } = options ?? {};
  const toolStatics: Matchers[] = [];
  const agentStatics: Matchers[] = [];
  const preds: ContextPredicate[] = [];
  if (typeof tools === "function") preds.push(tools);
  else if (tools !== undefined) toolStatics.push(tools);
  if (typeof agents === "function") preds.push(agents);
  else if (agents !== undefined) agentStatics.push(agents);
  if (add.tools !== undefined) toolStatics.push(add.tools);
  if (add.agents !== undefined) agentStatics.push(add.agents);
  if (add.predicate !== undefined) preds.push(add.predicate);

  let toolSlot: ToolFilter | undefined | null = combine(toolStatics, preds, toolPredicate) as NameMatchers;
  let agentSlot: AgentFilter | undefined | null = combine(agentStatics, preds, agentPredicate) as RoleMatchers;
  if (toolSlot === null || agentSlot === null) return null;
  if (preds.length > 0) {
    const p = all(preds);
    if (toolSlot === undefined) toolSlot = p;
    else if (agentSlot === undefined) agentSlot = p;
    else {
      // Both slots hold static matchers: the agent one turns into a predicate (same result, checked per call).
      const role = agentPredicate(agentSlot as RoleMatchers);
      agentSlot = (ctx) => role(ctx) && p(ctx);
    }
  }
  const out: HookOptions = { ...rest };
  if (toolSlot !== undefined) out.tools = toolSlot;
  if (agentSlot !== undefined) out.agents = agentSlot;
  return out;
}

/** Answers once per call, so that every hook of a pack applies or none does. */
function oncePerCall(predicate: ContextPredicate): ContextPredicate {
  const decided = new WeakMap<object, boolean>();
  return (ctx) => {
    let yes = decided.get(ctx);
    if (yes === undefined) {
      yes = predicate(ctx);
      decided.set(ctx, yes);
    }
    return yes;
  };
}

/** A copy of `pack` (extras kept) whose hooks all carry the extra condition. @internal */
export function narrowPack<E extends object>(pack: Pack<E>, add: Narrowing): Pack<E> {
  const shared =
    add.predicate !== undefined && pack.hooks.length > 1 ? { ...add, predicate: oncePerCall(add.predicate) } : add;
  const hooks: HookSpec[] = [];
  for (const spec of pack.hooks) {
    const options = narrowOptions(spec.options, shared);
    if (options !== null) hooks.push({ ...spec, options } as HookSpec);
  }
  return definePack({ ...(pack as object), name: pack.name, hooks }) as unknown as Pack<E>;
}

/** Checks matchers eagerly, with the same rules the core applies at registration. @internal */
export function checkMatchers(m: unknown, what: string): void {
  const items = Array.isArray(m) ? (m as unknown[]) : [m];
  if (items.length === 0)
    throw packTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      `toolware/conditional: ${what}() got an empty list, so nothing would run`,
    );
  for (const item of items) {
    const ok =
      item instanceof RegExp ||
      (typeof item === "string" && normalizeName(item) !== "") ||
      (what === "forTools" &&
        typeof item === "object" &&
        item !== null &&
        typeof (item as Item & { name: unknown }).name === "string" &&
        normalizeName((item as { name: string }).name) !== "");
    if (!ok) {
      throw packTypeError(
        "TOOLWARE_INVALID_ARGUMENT",
        `toolware/conditional: ${what}() takes names, globs${what === "forTools" ? ", tools" : ""} and RegExps, got ${typeof item === "string" ? JSON.stringify(item) : typeof item}`,
      );
    }
  }
}
