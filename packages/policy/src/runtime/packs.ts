import { dirname, isAbsolute, resolve } from "node:path";
import type { Pack } from "@toolware/core";
import { audit } from "@toolware/packs/audit";
import { cache } from "@toolware/packs/cache";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { loopGuard } from "@toolware/packs/loop-guard";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";
import { retry } from "@toolware/packs/retry";
import { timeout } from "@toolware/packs/timeout";
import { queryRules, safePath } from "@toolware/packs/validate";
import { messageOf } from "@toolware/core";
import type { LoadedDocument, PacksDoc } from "../document.js";
import { compileError } from "./errors.js";
import type { PolicyStores } from "./options.js";

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

// Keys the file may not give a pack: the rule's match chooses the tools, and stores come from the file's
// `stores` or the code's options, never from a pack's options (they are objects, not data).
const REFUSED: Readonly<Record<string, string>> = {
  tools: "the rule's `match` chooses the tools a pack applies to",
  store: "stores are named once, in the file's `stores` or in loadPolicy's `stores` option",
};

function validatePacks(options: Data): Pack[] {
  const out: Pack[] = [];
  for (const [key, value] of Object.entries(options)) {
    const given = { ...(value as Data), tools: EVERY_TOOL };
    if (key === "safePath") out.push(safePath(given as unknown as Parameters<typeof safePath>[0]));
    else if (key === "query") out.push(queryRules(given as unknown as Parameters<typeof queryRules>[0]));
    else throw new Error(`validate takes \`safePath\` and \`query\`, not \`${key}\``);
  }
  return out;
}

function withStore<T extends Data>(options: T, store: unknown): T {
  return store === undefined ? options : { ...options, store };
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
): { name: string; pack: Pack }[] {
  const out: { name: string; pack: Pack }[] = [];
  for (const name of Object.keys(packs)) {
    if (!(PACK_NAMES as readonly string[]).includes(name)) {
      throw compileError(loaded, ["rules", ruleIndex, "packs", name], `unknown pack \`${name}\` (packs: ${PACK_NAMES.join(", ")})`);
    }
  }
  for (const name of PACK_NAMES) {
    const options = packs[name];
    if (options === undefined) continue;
    const at = ["rules", ruleIndex, "packs", name] as const;
    for (const key of Object.keys(REFUSED)) {
      if (Object.hasOwn(options, key)) throw compileError(loaded, [...at, key], `\`${key}\` is not allowed here: ${REFUSED[key]}`);
    }
    try {
      for (const pack of make(name, options, stores, loaded.file)) out.push({ name, pack });
    } catch (error) {
      throw compileError(loaded, at, messageOf(error), error);
    }
  }
  return out;
}

function make(name: (typeof PACK_NAMES)[number], o: Data, stores: PolicyStores, file: string): Pack[] {
  type Opt<F extends (arg: never) => unknown> = Parameters<F>[0];
  switch (name) {
    case "redact":
      return [redact(o as Opt<typeof redact>)];
    case "validate":
      return validatePacks(o);
    case "rate-limit":
      return [rateLimit(withStore(o, stores.rateLimit?.()) as unknown as Opt<typeof rateLimit>)];
    case "cache":
      return [cache(withStore(o, stores.cache?.()) as unknown as Opt<typeof cache>)];
    case "loop-guard":
      return [loopGuard(withStore(o, stores.loopGuard?.()) as unknown as Opt<typeof loopGuard>)];
    case "timeout":
      return [timeout(o as unknown as Opt<typeof timeout>)];
    case "retry":
      return [retry(o as Opt<typeof retry>)];
    case "circuit-breaker":
      return [circuitBreaker(withStore(o, stores.circuitBreaker?.()) as unknown as Opt<typeof circuitBreaker>)];
    case "audit": {
      // A relative audit file is relative to the policy file, as a person reading the file expects.
      const target = o.file;
      const placed =
        typeof target === "string" && !isAbsolute(target) && file !== "<inline>"
          ? { ...o, file: resolve(dirname(file), target) }
          : o;
      return [audit(placed as unknown as Opt<typeof audit>)];
    }
  }
}
