// A ToolHooks with every pack on the chain of every tool, for tests that stress the engine
// rather than one pack: listeners, re-entrant calls. Each pack lets ordinary calls through.
import { ToolHooks } from "@toolware/core";
import { z } from "zod";
import { analytics } from "./analytics/index.js";
import { approval } from "./approval/index.js";
import { cache } from "./cache/index.js";
import { circuitBreaker } from "./circuit-breaker/index.js";
import { forAgents } from "./conditional/index.js";
import { debugLog } from "./debug-log/index.js";
import { guardrails } from "./guardrails/index.js";
import { loopGuard } from "./loop-guard/index.js";
import { rateLimit } from "./rate-limit/index.js";
import { redact } from "./redact/index.js";
import { retry } from "./retry/index.js";
import { timeout } from "./timeout/index.js";
import { safePath, validate } from "./validate/index.js";

/** Names of the packs {@link everyPack} registers, in order. */
export const PACK_NAMES = [
  "analytics",
  "debug-log",
  "loop-guard",
  "guardrails",
  "validate",
  "safe-path",
  "approval",
  "rate-limit",
  "cache",
  "circuit-breaker",
  "timeout",
  "retry",
  "redact",
  "conditional",
] as const;

/**
 * A ToolHooks running every pack on every call: approvals are granted, limits are out of reach,
 * the cache only remembers tools named `cached_*`, and retries wait for nothing.
 */
export function everyPack(): ToolHooks {
  const hooks = new ToolHooks({ humanInput: () => "yes" });
  hooks.use(analytics());
  hooks.use(debugLog({ logger: { info: () => {}, warn: () => {}, error: () => {} } }));
  hooks.use(loopGuard({ maxRepeats: false, maxInWindow: 10_000_000, onWarn: () => {} }));
  hooks.use(guardrails({ deny: [{ tag: "forbidden" }] }));
  hooks.use(validate({ schemas: { never_called: z.object({ q: z.string() }) } }));
  hooks.use(safePath({ tools: "*", root: "/srv/data" }));
  hooks.use(approval({ timeoutMs: 60_000 }));
  hooks.use(rateLimit({ max: 10_000_000, per: "1m" }));
  hooks.use(cache({ tools: "cached_*", ttl: "1h" }));
  hooks.use(circuitBreaker({ failureThreshold: 10_000_000 }));
  hooks.use(timeout({ ms: 60_000 }));
  hooks.use(retry({ retries: 2, sleep: async () => {} }));
  hooks.use(redact());
  hooks.use(forAgents("auditor").after(() => {}));
  return hooks;
}
