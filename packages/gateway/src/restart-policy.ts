import { closestKey, ToolwareTypeError } from "@toolware/core";
import type { RestartOptions } from "./contract.js";

/** The restart options with every default filled in. @internal */
export type RestartPolicy = Required<RestartOptions>;

/** The defaults `docs/gateway.md` promises. @internal */
export const RESTART_DEFAULTS: RestartPolicy = {
  maxRestarts: 5,
  windowMs: 60_000,
  initialDelayMs: 250,
  maxDelayMs: 30_000,
  jitter: 0.2,
};

const KEYS = Object.keys(RESTART_DEFAULTS);

function whole(value: unknown, min: number, max: number): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

/** Checks a `restart` option strictly: unknown keys refused with a hint, every number in range. @internal */
export function checkRestart(value: unknown, where: string): RestartOptions | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `${where} must be an object { maxRestarts, windowMs, … }`);
  }
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === "string" && KEYS.includes(key)) continue;
    const guess = typeof key === "string" ? closestKey(key, KEYS) : undefined;
    throw new ToolwareTypeError(
      "TOOLWARE_UNKNOWN_OPTION",
      `${where}: unknown option \`${String(key)}\`${guess === undefined ? "" : ` (did you mean "${guess}"?)`} (known: ${KEYS.join(", ")})`,
    );
  }
  const o = value as Record<string, unknown>;
  const bad = (key: string, what: string) =>
    new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `${where}.${key} must be ${what}`);
  if (o.maxRestarts !== undefined && !whole(o.maxRestarts, 0, 1000)) throw bad("maxRestarts", "a whole number 0-1000");
  if (o.windowMs !== undefined && !whole(o.windowMs, 1, 86_400_000))
    throw bad("windowMs", "a whole number of ms, 1 to 86 400 000");
  if (o.initialDelayMs !== undefined && !whole(o.initialDelayMs, 0, 3_600_000))
    throw bad("initialDelayMs", "a whole number of ms, 0 to 3 600 000");
  if (o.maxDelayMs !== undefined && !whole(o.maxDelayMs, 0, 3_600_000))
    throw bad("maxDelayMs", "a whole number of ms, 0 to 3 600 000");
  if (o.jitter !== undefined && !(typeof o.jitter === "number" && o.jitter >= 0 && o.jitter <= 1))
    throw bad("jitter", "a number from 0 to 1");
  if (typeof o.maxDelayMs === "number" && typeof o.initialDelayMs === "number" && o.maxDelayMs < o.initialDelayMs)
    throw bad("maxDelayMs", "at least initialDelayMs");
  return o as RestartOptions;
}

/** The gateway's options under the upstream's, key by key, over the defaults. @internal */
export function restartPolicy(
  gateway: RestartOptions | undefined,
  upstream: RestartOptions | undefined,
): RestartPolicy {
  return { ...RESTART_DEFAULTS, ...gateway, ...upstream };
}

/**
 * The wait before the next restart when `recent` restarts are still in the window: doubled for each, capped, less
 * a random share (so many sessions do not restart in step). @internal
 */
export function restartDelay(policy: RestartPolicy, recent: number, random: () => number = Math.random): number {
  const full = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.min(recent, 40));
  return Math.round(full * (1 - policy.jitter * random()));
}
