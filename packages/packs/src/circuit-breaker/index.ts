import { definePack, type Next, type Pack, type ToolCallHookContext, type ToolFilter } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { checkFunction, checkKeys, checkMessage, checkOptionsObject } from "../internal/options.js";

/** Where a circuit stands: `closed` lets calls through, `open` answers fast, `half-open` lets trials through. */
export type CircuitState = "closed" | "open" | "half-open";

/** What `state(key)` reports. */
export interface CircuitSnapshot {
  readonly state: CircuitState;
  /** Consecutive failures counted while closed (the threshold's count when it opened). */
  readonly failures: number;
  /** Trial calls in flight (half-open only). */
  readonly trials: number;
  /** Milliseconds until an open circuit lets a trial through. */
  readonly retryInMs?: number;
}

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

/** Options of {@link circuitBreaker}. */
export interface CircuitBreakerOptions {
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
  tools?: ToolFilter;
  /** Told about every change of state (open → half-open is noticed at the next call). */
  onStateChange?: (change: CircuitChange) => void;
}

/** The API the circuit-breaker pack adds. */
export interface CircuitBreakerPack {
  /** Where the circuit of `key` (a tool name by default) stands now. */
  state(key: string): CircuitSnapshot;
  /** Closes one circuit, or all of them. */
  reset(key?: string): void;
}

interface Circuit {
  state: CircuitState;
  failures: number;
  openedAt: number;
  trials: number;
  /** Bumped on each half-open period, so late trial outcomes of an earlier one are ignored. */
  epoch: number;
}

type Outcome = "success" | "failure" | "neutral";

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
export function circuitBreaker(options: CircuitBreakerOptions = {}): Pack<CircuitBreakerPack> {
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
  const { key = "tool", isFailure = isError, now = Date.now, message, onStateChange, tools } = options;
  if (key !== "tool" && typeof key !== "function") fail(`\`key\` must be "tool" or a function, got ${shown(key)}`);
  checkFunction(isFailure, "isFailure", PREFIX);
  checkFunction(now, "now", PREFIX);
  checkFunction(onStateChange, "onStateChange", PREFIX);
  checkMessage(message, PREFIX);
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

  // Only circuits that have failures or are not closed are kept: a healthy key costs no memory.
  const circuits = new Map<string, Circuit>();

  const move = (k: string, c: Circuit, to: CircuitState): void => {
    const from = c.state;
    c.state = to;
    if (to === "open") c.openedAt = now();
    if (to !== "closed") c.trials = 0;
    if (to === "half-open") c.epoch++;
    onStateChange?.({ key: k, from, to });
  };

  const close = (k: string, c: Circuit): void => {
    circuits.delete(k);
    if (c.state !== "closed") onStateChange?.({ key: k, from: c.state, to: "closed" });
  };

  const record = (k: string, trial: Circuit | undefined, epoch: number, outcome: Outcome): void => {
    const c = circuits.get(k);
    if (trial !== undefined) {
      // The trial belongs to a half-open period that is over (another trial decided, or reset()).
      if (c !== trial || c.state !== "half-open" || c.epoch !== epoch) return;
      if (outcome === "neutral") c.trials--;
      else if (outcome === "success") close(k, c);
      else move(k, c, "open");
      return;
    }
    // Admitted while closed: once the circuit opened, late outcomes add nothing.
    if (c !== undefined && c.state !== "closed") return;
    if (outcome === "success") {
      if (c !== undefined) close(k, c);
    } else if (outcome === "failure") {
      const current = c ?? { state: "closed" as CircuitState, failures: 0, openedAt: 0, trials: 0, epoch: 0 };
      if (c === undefined) circuits.set(k, current);
      current.failures++;
      if (current.failures >= failureThreshold) move(k, current, "open");
    }
  };

  function circuitBreakerGuard(ctx: ToolCallHookContext, next: Next): Promise<void> | undefined {
    const k = keyOf(ctx);
    const c = circuits.get(k);
    let trial: Circuit | undefined;
    let epoch = 0;
    if (c !== undefined && c.state !== "closed") {
      if (c.state === "open") {
        const retryInMs = c.openedAt + cooldownMs - now();
        if (retryInMs > 0) {
          ctx.block(reasonFor({ key: k, toolName: ctx.toolName, state: "open", retryInMs }));
          return undefined;
        }
        move(k, c, "half-open");
      }
      // Decided synchronously, before any await: concurrent calls cannot both take the last slot.
      if (c.trials >= halfOpenMax) {
        ctx.block(reasonFor({ key: k, toolName: ctx.toolName, state: "half-open", retryInMs: 0 }));
        return undefined;
      }
      c.trials++;
      trial = c;
      epoch = c.epoch;
    }
    return next().then(
      () => {
        let outcome: Outcome = "neutral";
        try {
          if (ctx.toolRan) outcome = isFailure(ctx) ? "failure" : "success";
        } catch (error) {
          record(k, trial, epoch, "failure");
          throw error;
        }
        record(k, trial, epoch, outcome);
      },
      (error: unknown) => {
        // A "throw"-policy hook inside made the call reject: free the trial slot all the same.
        record(k, trial, epoch, "neutral");
        throw error;
      },
    );
  }

  return definePack({
    name: "circuit-breaker",
    stateful: true,
    hooks: [{ kind: "middleware", fn: circuitBreakerGuard, options: tools === undefined ? {} : { tools } }],
    state(k: string): CircuitSnapshot {
      const c = circuits.get(k);
      if (c === undefined) return { state: "closed", failures: 0, trials: 0 };
      if (c.state !== "open") return { state: c.state, failures: c.failures, trials: c.trials };
      const retryInMs = c.openedAt + cooldownMs - now();
      return retryInMs > 0
        ? { state: "open", failures: c.failures, trials: 0, retryInMs }
        : { state: "half-open", failures: c.failures, trials: 0 };
    },
    reset(k?: string): void {
      const doomed = k === undefined ? [...circuits] : [[k, circuits.get(k)] as const];
      for (const [name, c] of doomed) if (c !== undefined) close(name, c);
    },
  });
}
