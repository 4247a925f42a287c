import { closestKey, type HumanInputProvider, type ToolCallHookContext, ToolwareTypeError } from "@toolware/core";
import type { AuditContext } from "@toolware/packs/audit";
import type { CacheOptions } from "@toolware/packs/cache";
import type { CircuitStore } from "@toolware/packs/circuit-breaker";
import type { LoopGuardStore } from "@toolware/packs/loop-guard";
import type { RateLimitStore } from "@toolware/packs/rate-limit";
import type { PolicyMode } from "../document.js";
import type { PolicyEvent } from "./events.js";

/** Stores the rules' packs keep their state in; left out, each pack keeps its own in memory. */
export interface PolicyStoresOption {
  readonly rateLimit?: RateLimitStore;
  readonly cache?: NonNullable<CacheOptions["store"]>;
  readonly loopGuard?: LoopGuardStore;
  readonly circuitBreaker?: CircuitStore;
}

/**
 * Opens the stores a policy file names by URL. The policy opens no connection itself (it does not depend on
 * `@toolware/redis`): you say how a URL becomes stores, and the file says which URL each pack uses.
 */
export interface PolicyConnectOption {
  /**
   * Called once per distinct `redis://` or `rediss://` URL the file names (remembered for the pack's life, reloads
   * included): the stores served by that URL, for example made with `@toolware/redis`. A throw or a rejection
   * fails the load (`TOOLWARE_POLICY_STORE`).
   */
  readonly redis?: (url: string) => PolicyStoresOption | Promise<PolicyStoresOption>;
}

/** Options of {@link loadPolicy} and {@link watchPolicy}. */
export interface LoadPolicyOptions {
  /** Store instances for the packs the rules attach (a Redis-backed store from `@toolware/redis`, say). */
  readonly stores?: PolicyStoresOption;
  /** How the Redis URLs the file names become stores; a URL wins over `stores`. */
  readonly connect?: PolicyConnectOption;
  /** Where approvals ask. Default: the `ToolHooks` instance's `humanInput`. */
  readonly humanInput?: HumanInputProvider;
  /** Who is calling (the `callers` of a match and `caller` in CEL). A throw denies the call (fail closed). */
  readonly caller?: (ctx: ToolCallHookContext) => string | undefined;
  /**
   * Through which upstream a call goes (a gateway's upstream), for the rate limits and loop guards the file keys by
   * upstream. A throw fails the call (fail closed).
   */
  readonly upstream?: (ctx: ToolCallHookContext) => string | undefined;
  /** Hears every decision, shadow decision, reload and reload failure. A throw is reported and ignored. */
  readonly onEvent?: (event: PolicyEvent) => void;
  /** Overrides the mode of the file and of every rule: `shadow` to roll a policy out, `enforce` to force it on. */
  readonly mode?: PolicyMode;
  /** Chain position of the policy's decision hooks. Default 500 (before the packs' own defaults). */
  readonly priority?: number;
  /**
   * More for the `context` of every line the file's `audit` packs write, beside the deciding `rule`, its `effect` and
   * the policy `version` (the gateway's `gatewayAuditContext` adds the client, upstream and session).
   */
  readonly auditContext?: (ctx: ToolCallHookContext) => AuditContext | undefined;
}

/** The stores as the pack builder uses them. @internal */
export interface PolicyStores {
  /** The stores each connected Redis URL serves (see {@link connectUrl}). */
  readonly urls?: ReadonlyMap<string, PolicyStoresOption>;
  readonly rateLimit?: () => RateLimitStore;
  readonly cache?: () => NonNullable<CacheOptions["store"]>;
  readonly loopGuard?: () => LoopGuardStore;
  readonly circuitBreaker?: () => CircuitStore;
  /** The `caller` option, for the rate limits and loop guards the file keys by caller. */
  readonly caller?: LoadPolicyOptions["caller"];
  /** The `upstream` option, for the rate limits and loop guards the file keys by upstream. */
  readonly upstream?: LoadPolicyOptions["upstream"];
  /** The `auditContext` option, for the audit packs the file attaches. */
  readonly auditContext?: LoadPolicyOptions["auditContext"];
}

const KEYS = ["stores", "connect", "humanInput", "caller", "upstream", "onEvent", "mode", "priority", "auditContext"];
const STORE_KEYS = ["rateLimit", "cache", "loopGuard", "circuitBreaker"];
const CONNECT_KEYS = ["redis"];
const ALIASES: Readonly<Record<string, string>> = {
  humanInputProvider: "humanInput",
  ask: "humanInput",
  provider: "humanInput",
  onDecision: "onEvent",
  logger: "onEvent",
  listener: "onEvent",
  store: "stores",
};

/** ` (did you mean "x"?)` for a misspelt key, or "" when nothing is close. */
export function hint(key: string, known: readonly string[], aliases: Readonly<Record<string, string>> = {}): string {
  const guess = Object.hasOwn(aliases, key) ? aliases[key] : closestKey(key, known);
  return guess === undefined ? "" : ` (did you mean "${guess}"?)`;
}

const invalid = (message: string) => new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `loadPolicy: ${message}`);

function checkKeysOf(value: object, known: readonly string[], where: string, aliases = {}): void {
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== "string" || !known.includes(key)) {
      const name = String(key);
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `loadPolicy: unknown ${where} \`${name}\`${typeof key === "string" ? hint(name, known, aliases) : ""} (known: ${known.join(", ")})`,
      );
    }
  }
}

/** Checks the options strictly (a typo must never switch a guard off) and reads each once. @internal */
export function checkOptions(options: LoadPolicyOptions | undefined): LoadPolicyOptions {
  if (options === undefined) return {};
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw invalid("the options must be an object");
  }
  checkKeysOf(options, KEYS, "option", ALIASES);
  const { stores, connect, humanInput, caller, upstream, onEvent, mode, priority, auditContext } = options;
  for (const [name, fn] of [
    ["humanInput", humanInput],
    ["caller", caller],
    ["upstream", upstream],
    ["onEvent", onEvent],
    ["auditContext", auditContext],
  ] as const) {
    if (fn !== undefined && typeof fn !== "function") throw invalid(`\`${name}\` must be a function`);
  }
  if (mode !== undefined && mode !== "enforce" && mode !== "shadow") {
    throw invalid(`\`mode\` must be "enforce" or "shadow", got ${JSON.stringify(mode) ?? typeof mode}`);
  }
  if (priority !== undefined && !(typeof priority === "number" && Number.isFinite(priority))) {
    throw invalid("`priority` must be a finite number");
  }
  if (stores !== undefined) checkStores(stores, "stores");
  if (connect !== undefined) {
    if (connect === null || typeof connect !== "object") throw invalid("`connect` must be an object");
    checkKeysOf(connect, CONNECT_KEYS, "connector", { rediss: "redis", ioredis: "redis" });
    if (connect.redis !== undefined && typeof connect.redis !== "function") {
      throw invalid("`connect.redis` must be a function (url) => stores");
    }
  }
  const frozenConnect = connect === undefined ? undefined : Object.freeze({ redis: connect.redis });
  return Object.freeze({
    stores,
    connect: frozenConnect,
    humanInput,
    caller,
    upstream,
    onEvent,
    mode,
    priority,
    auditContext,
  });
}

function checkStores(stores: unknown, where: string): asserts stores is PolicyStoresOption {
  if (stores === null || typeof stores !== "object") throw invalid(`\`${where}\` must be an object`);
  checkKeysOf(stores, STORE_KEYS, "store");
  for (const key of STORE_KEYS) {
    const s = (stores as Record<string, unknown>)[key];
    if (s !== undefined && (s === null || typeof s !== "object")) {
      throw invalid(`\`${where}.${key}\` must be a store object`);
    }
  }
}

const connected = new WeakMap<LoadPolicyOptions, Map<string, Promise<PolicyStoresOption>>>();

/**
 * The stores `connect.redis` gives for a Redis URL the file names (undefined without a connector), asked once per
 * URL and per checked options, so a watched policy's reloads reuse the connections. @internal
 */
export function connectUrl(options: LoadPolicyOptions, url: string): Promise<PolicyStoresOption> | undefined {
  const redis = options.connect?.redis;
  if (redis === undefined) return undefined;
  let memo = connected.get(options);
  if (memo === undefined) {
    memo = new Map();
    connected.set(options, memo);
  }
  const known = memo.get(url);
  if (known !== undefined) return known;
  const pending = (async () => {
    const stores = await redis(url);
    checkStores(stores, `connect.redis("${url}") result`);
    return stores;
  })();
  memo.set(url, pending);
  // A failed connection is asked again at the next load or reload, not remembered.
  pending.catch(() => memo.delete(url));
  return pending;
}

/** The stores as factories: one shared instance each. @internal */
export function storesOf(option: PolicyStoresOption | undefined): PolicyStores {
  const out: Record<string, () => unknown> = {};
  if (option !== undefined) {
    for (const key of STORE_KEYS) {
      const s = (option as Record<string, unknown>)[key];
      if (s !== undefined) out[key] = () => s;
    }
  }
  return out as PolicyStores;
}
