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

// Each pack with options that let ordinary calls through: approvals are granted (the instance's
// human says yes), limits are out of reach, the cache only remembers tools named `cached_*`, and
// retries wait for nothing. Every tool input needs a relative `path` (for safePath).
const PACKS = {
  analytics: () => analytics(),
  "debug-log": () => debugLog({ logger: { info: () => {}, warn: () => {}, error: () => {} } }),
  "loop-guard": () => loopGuard({ maxRepeats: false, maxInWindow: 10_000_000, onWarn: () => {} }),
  guardrails: () => guardrails({ deny: [{ tag: "forbidden" }] }),
  validate: () => validate({ schemas: { never_called: z.object({ q: z.string() }) } }),
  "safe-path": () => safePath({ tools: "*", root: "/srv/data" }),
  approval: () => approval({ timeoutMs: 60_000 }),
  "rate-limit": () => rateLimit({ max: 10_000_000, per: "1m" }),
  cache: () => cache({ tools: "cached_*", ttl: "1h" }),
  "circuit-breaker": () => circuitBreaker({ failureThreshold: 10_000_000 }),
  timeout: () => timeout({ ms: 60_000 }),
  retry: () => retry({ retries: 2, sleep: async () => {} }),
  redact: () => redact(),
  conditional: () => forAgents("auditor").after(() => {}),
} as const;

/** The name of every pack, in the order {@link withPacks} registers them by default. */
export const PACK_NAMES = Object.keys(PACKS) as (keyof typeof PACKS)[];

/** A ToolHooks whose human approves everything, with the given packs (default: all) on every tool. */
export function withPacks(names: readonly (keyof typeof PACKS)[] = PACK_NAMES): ToolHooks {
  const hooks = new ToolHooks({ humanInput: () => "yes" });
  for (const name of names) hooks.use(PACKS[name]());
  return hooks;
}
