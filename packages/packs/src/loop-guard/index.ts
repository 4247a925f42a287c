import { type Agent, type Crew, definePack, type Pack, type ToolCallHookContext } from "@toolware/core";
import { canonicalJson } from "../internal/canonical-json.js";
import { formatDuration, parseDuration } from "../internal/duration.js";
import { packTypeError, shown } from "../internal/errors.js";
import { checkAgents } from "../internal/observer-options.js";
import { guardClock, ownOptions } from "../internal/options.js";
import { agentScopeId, crewScopeId } from "../internal/scope-id.js";
import { isThenable } from "../internal/thenable.js";
import { toolFilter } from "../internal/tool-selector.js";
import { namedScopes } from "./keyed.js";
import { type LoopGuardOptions, validate } from "./options.js";
import {
  type LoopGuardStore,
  type LoopRule,
  type LoopScopeRef,
  type MemoryLoopGuardStore,
  memoryLoopGuardStore,
  triggered,
} from "./store.js";
import type { LoopCounts, LoopHistoryEntry } from "./tracker.js";

export type { ToolSelector } from "../internal/tool-selector.js";

export type { LoopGuardOptions } from "./options.js";
export {
  type LoopGuardStore,
  type LoopRule,
  type LoopScopeRef,
  type MemoryLoopGuardStore,
  memoryLoopGuardStore,
} from "./store.js";
export type { LoopCounts, LoopHistoryEntry } from "./tracker.js";

/** Whose calls are counted together. */
export type LoopScope = "agent" | "crew" | "global";

/** What `onWarn` receives when a call looks like a loop. */
export interface LoopEvent {
  /** `repeats`: the same call N times in a row; `window`: M times within `windowMs`. */
  readonly kind: "repeats" | "window";
  readonly toolName: string;
  /**
   * How many identical calls, this one included: in a row (blocked ones too), or within the
   * window (those the guard let through).
   */
  readonly count: number;
  /** The threshold that was reached (`maxRepeats` or `maxInWindow`). */
  readonly limit: number;
  /** `"key"` when the `key` option names the scope. */
  readonly scope: LoopScope | "key";
  /** The agent's role, the crew's name, `"global"`, or what the `key` option answered. */
  readonly scopeName: string;
  /** What the guard does with the call. */
  readonly action: "warn" | "block";
  /** The sentence logged by default and given to the agent when blocking. */
  readonly message: string;
  readonly ctx: ToolCallHookContext;
}

/** The pack {@link loopGuard} returns; `H` is what `history()` answers (a promise of the list with a remote store). */
export type LoopGuardPack<H = LoopHistoryEntry[]> = Pack<{
  /**
   * Forgets what one agent's or crew's calls were (a name the `key` option answers, with it), or everyone's without
   * an argument; a promise with a remote store.
   */
  reset(target?: Agent | Crew | string): void | Promise<void>;
  /**
   * The calls the guard let through in a scope, oldest first (a copy); no argument: calls with no agent/crew, or the
   * global scope; with the `key` option, a name it answers. A promise with a remote store.
   */
  history(target?: Agent | Crew | string): H;
}>;

// Calls without an agent (scope "agent") or a crew (scope "crew"), and the "global" scope, share this one.
const NOBODY = {};

// A custom store's counts, read once. NaN, a string or a missing count compares false with every threshold, so
// a blocking guard would never block: an answer that is no pair of whole numbers fails the hook instead.
function checkedCounts(counts: unknown): LoopCounts {
  const c = counts as Partial<LoopCounts> | null;
  const streak: unknown = c !== null && typeof c === "object" ? c.streak : undefined;
  const inWindow: unknown = c !== null && typeof c === "object" ? c.inWindow : undefined;
  if (
    !Number.isSafeInteger(streak) ||
    !Number.isSafeInteger(inWindow) ||
    (streak as number) < 0 ||
    (inWindow as number) < 0
  ) {
    throw packTypeError(
      "TOOLWARE_INVALID_RETURN",
      `toolware/loop-guard: the store's observe() must return { streak, inWindow } (whole numbers ≥ 0), got ${shown(counts)}`,
    );
  }
  return { streak: streak as number, inWindow: inWindow as number };
}

/**
 * The seed's "tool chain monitoring": notices when an agent calls the same tool
 * over and over, `maxRepeats` times in a row (default 5, like the seed) or
 * `maxInWindow` times within `windowMs`, optionally only when the input is the
 * same too. Warns through `onWarn` (default `console.warn`), or blocks the call
 * with a message that tells the agent to change course. A warning guard fails
 * open; a blocking one fails closed.
 *
 * Thresholds count the call being made: with `maxRepeats: 5`, the fifth
 * identical call in a row triggers (so `action: "block"` lets four through).
 * A blocked call counts toward the streak (the sixth reports "6 times in a
 * row"), so a blocked loop stays blocked until a different call breaks it; it
 * takes no place in the window or the history, so retrying does not extend
 * a window's penalty.
 *
 * @example
 * ```ts
 * const loops = loopGuard({ maxRepeats: 3, sameInput: true, action: "block" });
 * hooks.use(loops);
 * // the third identical web_search in a row by one agent is blocked:
 * // "Loop detected: web_search called 3 times in a row with the same input by agent researcher. Try a different approach."
 * ```
 */
export function loopGuard<St extends LoopGuardStore = MemoryLoopGuardStore>(
  options: LoopGuardOptions<St> = {},
): LoopGuardPack<ReturnType<St["history"]>> {
  options = ownOptions(options, "toolware/loop-guard");
  validate(options);
  checkAgents(options.agents, "toolware/loop-guard");
  const maxRepeats = options.maxRepeats === false ? 0 : (options.maxRepeats ?? 5);
  const maxInWindow = options.maxInWindow ?? 0;
  const windowMs = parseDuration(options.windowMs === undefined ? "1m" : options.windowMs, "windowMs", "loop-guard");
  const { sameInput = false, scope = "agent", action = "warn", message } = options;
  const now = guardClock(options.now, "toolware/loop-guard");
  const historySize = options.historySize ?? 50;
  const onWarn = options.onWarn ?? ((e: LoopEvent) => console.warn(`⚠️  ${e.message}`));
  const store: LoopGuardStore = options.store ?? memoryLoopGuardStore();
  const rule: LoopRule = { maxRepeats, maxInWindow, windowMs, historySize, blocks: action === "block" };

  const named = options.key === undefined ? undefined : namedScopes(options.key);
  const refOf = (target: Agent | Crew | string | undefined): LoopScopeRef => {
    if (named !== undefined) return named.refOf(typeof target === "string" ? target : "");
    if (scope === "global") return { id: "global", owner: NOBODY };
    // Without `key` a name is no scope of this guard: it reads as no agent or crew.
    if (target === undefined || typeof target === "string")
      return { id: scope === "agent" ? agentScopeId(undefined) : crewScopeId(undefined), owner: NOBODY };
    return { id: "role" in target ? agentScopeId(target) : crewScopeId(target), owner: target };
  };
  // The `key` option is asked once per call: its answer names both the counted scope and the event's scopeName.
  const scopeOf = (ctx: ToolCallHookContext, name: string | undefined): LoopScopeRef =>
    name !== undefined ? refOf(name) : refOf(scope === "agent" ? ctx.agent : scope === "crew" ? ctx.crew : undefined);
  const scopeName = (ctx: ToolCallHookContext, name: string | undefined): string =>
    name !== undefined
      ? name || "(none)"
      : scope === "agent"
        ? `agent ${ctx.agent?.role ?? "(none)"}`
        : scope === "crew"
          ? `crew ${ctx.crew?.name ?? (ctx.crew === undefined ? "(none)" : "(unnamed)")}`
          : "global";

  const keyOf = (ctx: ToolCallHookContext): string => {
    if (!sameInput) return ctx.toolName;
    try {
      return `${ctx.toolName}\u0000${canonicalJson(ctx.toolInput)}`;
    } catch {
      // An input that cannot be compared (a cycle, a Map) is never "the same" as another.
      return `${ctx.toolName}\u0000#${ctx.callId}`;
    }
  };

  const describe = (kind: LoopEvent["kind"], ctx: ToolCallHookContext, count: number, name?: string): string => {
    const what = sameInput ? " with the same input" : "";
    const span = kind === "repeats" ? "in a row" : `within ${formatDuration(windowMs)}`;
    return `Loop detected: ${ctx.toolName} called ${count} times ${span}${what} by ${scopeName(ctx, name)}.`;
  };

  const decide = (ctx: ToolCallHookContext, counts: LoopCounts, name: string | undefined): void => {
    const checked = checkedCounts(counts);
    const kind = triggered(rule, checked);
    if (kind === undefined) return;
    const count = kind === "repeats" ? checked.streak : checked.inWindow;
    const event: LoopEvent = {
      kind,
      toolName: ctx.toolName,
      count,
      limit: kind === "repeats" ? maxRepeats : maxInWindow,
      scope: named === undefined ? scope : "key",
      scopeName: scopeName(ctx, name),
      action,
      message: describe(kind, ctx, count, name),
      ctx,
    };
    onWarn(event);
    if (action === "block") {
      ctx.block(
        typeof message === "function" ? message(event) : (message ?? `${event.message} Try a different approach.`),
      );
    }
  };

  // A sync store keeps the hook promise-free.
  function loopGuardHook(ctx: ToolCallHookContext): void | Promise<void> {
    const name = named?.nameOf(ctx);
    const key = keyOf(ctx);
    const t = now();
    const entry = { toolName: ctx.toolName, agentRole: ctx.agent?.role, callId: ctx.callId, at: t };
    const counts = store.observe(scopeOf(ctx, name), key, t, rule, entry);
    if (isThenable(counts)) return Promise.resolve(counts).then((c) => decide(ctx, c, name));
    decide(ctx, counts, name);
  }

  return definePack({
    name: "loop-guard",
    stateful: true,
    hooks: [
      {
        kind: "before",
        fn: loopGuardHook,
        options: {
          name: "loopGuard",
          onError: action === "block" ? "block" : "continue",
          priority: options.priority ?? 100,
          ...(options.tools === undefined ? {} : { tools: toolFilter(options.tools, "toolware/loop-guard: tools") }),
          ...(options.agents === undefined ? {} : { agents: options.agents }),
        },
      },
    ],
    reset: (target?: Agent | Crew | string) =>
      store.reset(target === undefined || (scope === "global" && named === undefined) ? undefined : refOf(target)),
    history: (target?: Agent | Crew | string) => store.history(refOf(target)) as ReturnType<St["history"]>,
  });
}
