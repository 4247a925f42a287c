import { definePack, type Next, type Pack, type ToolCallHookContext } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import {
  checkFunction,
  checkKeys,
  checkMessage,
  checkOptionsObject,
  guardClock,
  ownOptions,
} from "../internal/options.js";
import { isThenable } from "../internal/thenable.js";
import { type ToolSelector, toolFilter } from "../internal/tool-selector.js";
import {
  type CircuitAdmission,
  type CircuitOutcome,
  type CircuitPolicy,
  type CircuitSnapshot,
  type CircuitState,
  type CircuitStore,
  type CircuitTransition,
  type MemoryCircuitStore,
  memoryCircuitStore,
} from "./store.js";

export type { ToolSelector } from "../internal/tool-selector.js";

export {
  type CircuitAdmission,
  type CircuitOutcome,
  type CircuitPolicy,
  type CircuitSnapshot,
  type CircuitState,
  type CircuitStore,
  type CircuitTransition,
  type MemoryCircuitStore,
  memoryCircuitStore,
} from "./store.js";

/** What the `message` option receives. */
export interface CircuitBlockInfo {
  readonly key: string;
  readonly toolName: string;
  readonly state: "open" | "half-open";
  /** Milliseconds until the cool-down ends; 0 when half-open. */
  readonly retryInMs: number;
}

/** What `onStateChange` receives. */
export interface CircuitChange {
  readonly key: string;
  readonly from: CircuitState;
  readonly to: CircuitState;
}

/** Options of {@link circuitBreaker}; `St` is the type of the store given (it decides what `state()` answers). */
export interface CircuitBreakerOptions<St extends CircuitStore = MemoryCircuitStore> {
  /** Consecutive failed calls that open the circuit. Default 5. */
  failureThreshold?: number;
  /** How long an open circuit answers fast before letting trials through. Default 30000. */
  cooldownMs?: number;
  /** Trial calls allowed at once while half-open. Default 1. */
  halfOpenMax?: number;
  /** One circuit per tool name (`"tool"`, the default) or per key you compute (host, tenant…). */
  key?: "tool" | ((ctx: ToolCallHookContext) => string);
  /** Whether a call whose tool ran counts as a failure. Default: its status is `error`. */
  isFailure?: (ctx: ToolCallHookContext) => boolean;
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
  /** The block reason the agent reads. Default: `circuit open for <key>, retry in <n>s`. */
  message?: string | ((info: CircuitBlockInfo) => string);
  /** Only guard these tools. Default: every tool. */
  tools?: ToolSelector;
  /** Told about every change of state (open → half-open is noticed at the next call). */
  onStateChange?: (change: CircuitChange) => void;
  /**
   * Where circuits live. Default: a fresh in-memory store for this breaker. Share one store
   * (e.g. `redisCircuitStore` from `@toolware/redis`) so a circuit opened in one process is open
   * in all of them. A store that cannot answer makes the breaker block the call.
   */
  store?: St;
}

/**
 * The API the circuit-breaker pack adds. `S` is what `state()` answers: a plain snapshot
 * with the in-memory store, a promise of one with a remote store.
 */
export interface CircuitBreakerPack<S = CircuitSnapshot> {
  /** Where the circuit of `key` (a tool name by default) stands now. */
  state(key: string): S;
  /** Closes one circuit, or all of them. */
  reset(key?: string): void | Promise<void>;
}

const PREFIX = "toolware/circuit-breaker";
const OPTION_KEYS = [
  "failureThreshold",
  "cooldownMs",
  "halfOpenMax",
  "key",
  "isFailure",
  "now",
  "message",
  "tools",
  "onStateChange",
  "store",
];
// Names other circuit breakers (opossum, cockatiel, resilience4j) use for these options.
const ALIASES = { threshold: "failureThreshold", resetTimeout: "cooldownMs", cooldown: "cooldownMs" };

function fail(message: string): never {
  throw packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: ${message}`);
}

function positiveInteger(value: unknown, name: string): number {
  if (!Number.isInteger(value) || (value as number) < 1)
    fail(`\`${name}\` must be a whole number ≥ 1, got ${shown(value)}`);
  return value as number;
}

function defaultMessage(info: CircuitBlockInfo): string {
  return info.state === "open"
    ? `circuit open for ${info.key}, retry in ${Math.ceil(info.retryInMs / 1000)}s`
    : `circuit half-open for ${info.key}, trial call in progress, retry shortly`;
}

const isError = (ctx: ToolCallHookContext): boolean => ctx.status === "error";

/**
 * Stops calling a tool that keeps failing. After `failureThreshold` consecutive failed calls the
 * circuit opens and calls are answered at once as `blocked` (reason `circuit open for <tool>, retry
 * in Ns`) without running the tool; after `cooldownMs` up to `halfOpenMax` trial calls go through:
 * a success closes the circuit, a failure opens it again. Calls that did not run the tool count for
 * nothing. It sees each call's final outcome, after any retries.
 *
 * @example
 * ```ts
 * const breaker = circuitBreaker({ failureThreshold: 3, cooldownMs: 10_000 });
 * hooks.use(breaker);
 * // … after three failed calls:
 * await hooks.invoke(flakyApi, {}); // { status: "blocked", reason: "circuit open for flaky_api, retry in 10s" }
 * breaker.state("flaky_api"); // { state: "open", failures: 3, trials: 0, retryInMs: 10000 }
 * ```
 */
export function circuitBreaker<St extends CircuitStore = MemoryCircuitStore>(
  options: CircuitBreakerOptions<St> = {},
): Pack<CircuitBreakerPack<ReturnType<St["snapshot"]>>> {
  options = ownOptions(options, PREFIX);
  checkOptionsObject(options, `${PREFIX}: circuitBreaker() takes an options object`);
  checkKeys(options, OPTION_KEYS, PREFIX, { aliases: ALIASES });
  // Only a missing option takes its default: `null` is a mistake like any other wrong value.
  const or = <T>(value: T | undefined, fallback: T): T => (value === undefined ? fallback : value);
  const failureThreshold = positiveInteger(or(options.failureThreshold, 5), "failureThreshold");
  const halfOpenMax = positiveInteger(or(options.halfOpenMax, 1), "halfOpenMax");
  const cooldownMs = or(options.cooldownMs, 30_000);
  if (typeof cooldownMs !== "number" || !Number.isFinite(cooldownMs) || cooldownMs < 0) {
    fail(`\`cooldownMs\` must be a finite number ≥ 0, got ${shown(cooldownMs)}`);
  }
  const { key = "tool", isFailure = isError, message, onStateChange, tools } = options;
  const now = guardClock(options.now, PREFIX);
  if (key !== "tool" && typeof key !== "function") fail(`\`key\` must be "tool" or a function, got ${shown(key)}`);
  checkFunction(isFailure, "isFailure", PREFIX);
  checkFunction(options.now, "now", PREFIX);
  checkFunction(onStateChange, "onStateChange", PREFIX);
  checkMessage(message, PREFIX);
  const store = or<CircuitStore>(options.store, memoryCircuitStore());
  const methods = ["admit", "record", "snapshot", "reset"] as const;
  if (store === null || typeof store !== "object" || methods.some((m) => typeof store[m] !== "function")) {
    fail(`\`store\` must implement ${methods.join(", ")}`);
  }
  const keyOf =
    key === "tool"
      ? (ctx: ToolCallHookContext) => ctx.toolName
      : (ctx: ToolCallHookContext) => {
          const k: unknown = key(ctx);
          // A number or undefined would silently share (or split) circuits: a guard must not guess.
          if (typeof k !== "string") {
            throw packTypeError("TOOLWARE_INVALID_RETURN", `${PREFIX}: \`key\` returned ${typeof k}, not a string`);
          }
          return k;
        };
  const reasonFor = typeof message === "function" ? message : message === undefined ? defaultMessage : () => message;
  const policy: CircuitPolicy = { failureThreshold, cooldownMs, halfOpenMax };

  const changed = (k: string, change: CircuitTransition | undefined): void => {
    if (change !== undefined) onStateChange?.({ key: k, from: change.from, to: change.to });
  };

  // A store that cannot count an outcome must not change the call's outcome: the failure is reported.
  const record = (
    ctx: ToolCallHookContext,
    k: string,
    trial: string | undefined,
    outcome: CircuitOutcome,
  ): void | Promise<void> => {
    const lost = (error: unknown) => ctx.reportError("circuitBreaker.store", error);
    let change: ReturnType<CircuitStore["record"]>;
    try {
      change = store.record(k, outcome, trial, now(), policy);
    } catch (error) {
      return lost(error);
    }
    if (!isThenable(change)) return changed(k, change);
    return Promise.resolve(change).then((c) => changed(k, c), lost);
  };

  // Runs the call once admitted; its outcome is counted before the call's own promise settles.
  const run = (ctx: ToolCallHookContext, next: Next, k: string, trial: string | undefined): Promise<void> =>
    next().then(
      () => {
        let outcome: CircuitOutcome = "neutral";
        try {
          if (ctx.toolRan) outcome = isFailure(ctx) ? "failure" : "success";
        } catch (error) {
          return Promise.resolve(record(ctx, k, trial, "failure")).then(() => {
            throw error;
          });
        }
        return record(ctx, k, trial, outcome);
      },
      (error: unknown) => {
        // A "throw"-policy hook inside made the call reject: free the trial slot all the same.
        return Promise.resolve(record(ctx, k, trial, "neutral")).then(() => {
          throw error;
        });
      },
    );

  const decide = (ctx: ToolCallHookContext, next: Next, k: string, a: CircuitAdmission): Promise<void> | undefined => {
    // Only `allowed: true` runs the tool: a custom store answering "false", 1 or no object at all (a raw string
    // from a remote store, say) cannot decide, so it blocks like a store that throws.
    const allowed: unknown = a !== null && typeof a === "object" ? a.allowed : undefined;
    if (typeof allowed !== "boolean") {
      unavailable(ctx, k, new Error(`the store's admit() must return { allowed: true | false, … }, got ${shown(a)}`));
      return undefined;
    }
    changed(k, a.change);
    if (allowed) return run(ctx, next, k, (a as { trial?: string }).trial);
    const denied = a as Extract<CircuitAdmission, { allowed: false }>;
    ctx.block(reasonFor({ key: k, toolName: ctx.toolName, state: denied.state, retryInMs: denied.retryInMs }));
    return undefined;
  };

  // The reason carries the store's error: a guard that cannot decide says why it blocked.
  const unavailable = (ctx: ToolCallHookContext, k: string, error: unknown): void => {
    ctx.block(
      `circuit state for ${k} unavailable, call blocked: ${error instanceof Error ? error.message : String(error)}`,
    );
  };

  function circuitBreakerGuard(ctx: ToolCallHookContext, next: Next): Promise<void> | undefined {
    const k = keyOf(ctx);
    let admission: CircuitAdmission | Promise<CircuitAdmission>;
    try {
      // Decided in one store step, before any await: concurrent calls cannot both take the last slot.
      admission = store.admit(k, now(), policy);
    } catch (error) {
      unavailable(ctx, k, error);
      return undefined;
    }
    if (!isThenable(admission)) return decide(ctx, next, k, admission);
    return Promise.resolve(admission).then(
      (a) => decide(ctx, next, k, a),
      (error: unknown) => unavailable(ctx, k, error),
    );
  }

  const closedAll = (list: ReadonlyArray<readonly [string, CircuitState]>): void => {
    for (const [k, from] of list) onStateChange?.({ key: k, from, to: "closed" });
  };

  return definePack({
    name: "circuit-breaker",
    stateful: true,
    hooks: [
      {
        kind: "middleware",
        fn: circuitBreakerGuard,
        options: tools === undefined ? {} : { tools: toolFilter(tools, "toolware/circuit-breaker: tools") },
      },
    ],
    state: (k: string) => store.snapshot(k, now(), policy) as ReturnType<St["snapshot"]>,
    reset(k?: string): void | Promise<void> {
      const closed = store.reset(k);
      if (!isThenable(closed)) return closedAll(closed);
      return Promise.resolve(closed).then(closedAll);
    },
  });
}
