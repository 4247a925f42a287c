import type { ToolCallHookContext } from "./context.js";
import { predicatesPass } from "./filter.js";
import type { PackObservers } from "./pack.js";
import type { Registration } from "./registration.js";
import { selectHooks } from "./select-hooks.js";

interface Observed {
  readonly _regs: readonly Registration[];
  on(event: string, listener: (payload: unknown) => unknown): () => void;
}

// Whether the pack's hooks would apply to the call: an observer hears what its hooks would have seen.
function applies(reg: Registration, ctx: ToolCallHookContext): boolean {
  if (selectHooks([[reg]], ctx.toolName, ctx.agent).length === 0) return false;
  return predicatesPass(reg.filter.predicates, ctx);
}

/**
 * Adds a pack's `observe` listeners to `registry` and returns the functions that remove them. A
 * listener also stops by itself once the pack's hooks are gone (`remove(pack)`, `clear()`), so no
 * way of taking the pack out leaves it listening. @internal
 */
export function observePack(registry: Observed, regs: readonly Registration[], observe: PackObservers): (() => void)[] {
  const first = regs[0];
  let stopped = false;
  const stops: (() => void)[] = [];
  const stopAll = (): void => {
    stopped = true;
    for (const stop of stops) stop();
  };
  for (const [event, fn] of Object.entries(observe) as [string, (payload: unknown) => void][]) {
    const listener = function packObserver(payload: unknown): void {
      if (stopped || (first !== undefined && !registry._regs.includes(first))) {
        stopAll();
        return;
      }
      const ctx = (payload as { ctx?: ToolCallHookContext } | undefined)?.ctx;
      if (first !== undefined && ctx !== undefined && !applies(first, ctx)) return;
      fn(payload);
    };
    stops.push(registry.on(event, listener));
  }
  return [stopAll];
}
