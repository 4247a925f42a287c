import { dirname, isAbsolute, resolve } from "node:path";
import type { Pack, ToolCallHookContext } from "@toolware/core";
import { messageOf } from "@toolware/core";
import { type AuditContext, audit } from "@toolware/packs/audit";
import { cache } from "@toolware/packs/cache";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { loopGuard } from "@toolware/packs/loop-guard";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";
import { retry } from "@toolware/packs/retry";
import { timeout } from "@toolware/packs/timeout";
import { queryRules, safePath } from "@toolware/packs/validate";
import type { KeyPath, LoadedDocument, PacksDoc } from "../document.js";
import { compileError, StoreUnavailable } from "./errors.js";
import { loopGuardOptions, rateLimitOptions } from "./keys.js";
import type { PolicyStores } from "./options.js";

export { rateLimitOptions } from "./keys.js";

/** The pack names a rule can attach, in the order they are attached. */
export const PACK_NAMES = [
  "redact",
  "validate",
  "rate-limit",
  "cache",
  "loop-guard",
  "timeout",
  "retry",
  "circuit-breaker",
  "audit",
] as const;

type Data = Readonly<Record<string, unknown>>;
const EVERY_TOOL = (): boolean => true;
const STORE_KINDS = {
  "rate-limit": "rateLimit",
  cache: "cache",
  "loop-guard": "loopGuard",
  "circuit-breaker": "circuitBreaker",
} as const;
const REDIS_FACTORIES = {
  "rate-limit": "redisRateLimitStore",
  cache: "redisCacheStore",
  "loop-guard": "redisLoopGuardStore",
  "circuit-breaker": "redisCircuitStore",
} as const;

function validatePacks(options: Data): Pack[] {
  const out: Pack[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (key !== "safePath" && key !== "query") {
      throw new Error(
        `\`${key}\` needs Standard Schemas, which a policy file cannot hold: validate them in code with validate() from @toolware/packs/validate`,
      );
    }
    const given = value as Data;
    const withTools = { ...given, tools: given.tools ?? EVERY_TOOL };
    if (key === "safePath") out.push(safePath(withTools as unknown as Parameters<typeof safePath>[0]));
    else out.push(queryRules(withTools as unknown as Parameters<typeof queryRules>[0]));
  }
  return out;
}

// The store a pack gets: the pack's own `store` of the file, else the file's default; `memory` is the pack's own
// memory store; a Redis URL is served by `connect.redis` (the policy opens no connection itself), else by the store
// passed in code; nothing at all is a load error, never a silent memory store.
function storeFor(
  name: keyof typeof STORE_KINDS,
  ref: unknown,
  fileDefault: string | undefined,
  stores: PolicyStores,
): unknown {
  const wanted = ref ?? fileDefault;
  const kind = STORE_KINDS[name];
  if (wanted === "memory") return undefined;
  if (typeof wanted !== "string") return stores[kind]?.();
  const served = stores.urls?.get(wanted);
  if (served !== undefined) {
    if (served[kind] !== undefined) return served[kind];
    throw new StoreUnavailable(
      `connect.redis("${wanted}") returned no \`${kind}\` store: add ${kind}: ${REDIS_FACTORIES[name]}({ client }) (from @toolware/redis) to what it returns`,
    );
  }
  const injected = stores[kind]?.();
  if (injected !== undefined) return injected;
  throw new StoreUnavailable(
    `the store ${wanted} is named, but nothing opens it: pass loadPolicy(file, { connect: { redis: (url) => ({ ${kind}: ${REDIS_FACTORIES[name]}({ client: new Redis(url) }) }) } }) (from @toolware/redis and ioredis), or stores.${kind}`,
  );
}

/** The Redis URLs the rules' packs would use, each with the key path that names it (for load errors). @internal */
export function urlsNamed(packs: PacksDoc, fileDefault: string | undefined, at: KeyPath): Map<string, KeyPath> {
  const out = new Map<string, KeyPath>();
  for (const name of Object.keys(STORE_KINDS)) {
    const options = (packs as Record<string, Data | undefined>)[name];
    if (options === undefined) continue;
    const wanted = options.store ?? fileDefault;
    if (typeof wanted === "string" && wanted !== "memory" && !out.has(wanted)) {
      out.set(wanted, options.store === undefined ? ["stores", "default"] : [...at, name, "store"]);
    }
  }
  return out;
}

function withStore(options: Data, store: unknown): Data {
  const { store: _ref, ...rest } = options;
  return store === undefined ? rest : { ...rest, store };
}

/**
 * Makes the packs one rule attaches by calling the packs' own factories (so their option checks apply), each
 * error turned into a load error pointing at the rule's `packs.<name>`.
 */
export function buildPacks(
  loaded: LoadedDocument,
  ruleIndex: number,
  packs: PacksDoc,
  stores: PolicyStores,
  fileDefault: string | undefined,
): { name: string; pack: Pack }[] {
  const out: { name: string; pack: Pack }[] = [];
  for (const name of Object.keys(packs)) {
    if (!(PACK_NAMES as readonly string[]).includes(name)) {
      throw compileError(
        loaded,
        ["rules", ruleIndex, "packs", name],
        `unknown pack \`${name}\` (packs: ${PACK_NAMES.join(", ")})`,
      );
    }
  }
  for (const name of PACK_NAMES) {
    const options = packs[name];
    if (options === undefined) continue;
    const at = ["rules", ruleIndex, "packs", name] as const;
    try {
      for (const pack of make(name, options as Data, stores, fileDefault, loaded.file)) out.push({ name, pack });
    } catch (error) {
      throw compileError(
        loaded,
        error instanceof StoreUnavailable && typeof (options as Data).store === "string" ? [...at, "store"] : at,
        messageOf(error),
        error instanceof StoreUnavailable ? "TOOLWARE_POLICY_STORE" : undefined,
      );
    }
  }
  return out;
}

function make(
  name: (typeof PACK_NAMES)[number],
  o: Data,
  stores: PolicyStores,
  fileDefault: string | undefined,
  file: string,
): Pack[] {
  type Opt<F extends (arg: never) => unknown> = Parameters<F>[0];
  switch (name) {
    case "redact":
      return [redact(o as Opt<typeof redact>)];
    case "validate":
      return validatePacks(o);
    case "rate-limit": {
      const keyed = rateLimitOptions(o, stores);
      return [
        rateLimit(
          withStore(keyed, storeFor("rate-limit", o.store, fileDefault, stores)) as unknown as Opt<typeof rateLimit>,
        ),
      ];
    }
    case "cache":
      // The rule's match already chose the calls: within them, every tool's results may be reused.
      return [
        cache(
          withStore({ ...o, tools: o.tools ?? "*" }, storeFor("cache", o.store, fileDefault, stores)) as unknown as Opt<
            typeof cache
          >,
        ),
      ];
    case "loop-guard":
      return [
        loopGuard(
          withStore(
            loopGuardOptions(o, stores),
            storeFor("loop-guard", o.store, fileDefault, stores),
          ) as unknown as Opt<typeof loopGuard>,
        ),
      ];
    case "timeout":
      return [timeout(o as unknown as Opt<typeof timeout>)];
    case "retry":
      return [retry(o as Opt<typeof retry>)];
    case "circuit-breaker":
      return [
        circuitBreaker(
          withStore(o, storeFor("circuit-breaker", o.store, fileDefault, stores)) as unknown as Opt<
            typeof circuitBreaker
          >,
        ),
      ];
    case "audit": {
      // A relative audit file is relative to the policy file, as a person reading the file expects.
      const target = o.file;
      const placed =
        typeof target === "string" && !isAbsolute(target) && file !== "<inline>"
          ? { ...o, file: resolve(dirname(file), target) }
          : o;
      const more = stores.auditContext;
      // Every line names what the policy decided for the call: the deciding rule, as the gateway issue asks.
      const context = (ctx: ToolCallHookContext): AuditContext => {
        const d = ctx.state.policy;
        const base = d === undefined ? {} : { rule: d.rule, effect: d.effect, policyVersion: d.version };
        return { ...base, ...more?.(ctx) };
      };
      return [audit({ ...placed, context } as unknown as Opt<typeof audit>)];
    }
  }
}
