// Packs that count or remember are marked stateful: one instance twice on a layer is refused.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolHooks, toolwareCode } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { analytics } from "./analytics/index.js";
import { approval } from "./approval/index.js";
import { audit } from "./audit/index.js";
import { cache } from "./cache/index.js";
import { circuitBreaker } from "./circuit-breaker/index.js";
import { forTools } from "./conditional/index.js";
import { debugLog } from "./debug-log/index.js";
import { guardrails } from "./guardrails/index.js";
import { loopGuard } from "./loop-guard/index.js";
import { rateLimit } from "./rate-limit/index.js";
import { redact } from "./redact/index.js";
import { retry } from "./retry/index.js";
import { timeout } from "./timeout/index.js";

const dir = mkdtempSync(join(tmpdir(), "toolware-stateful-"));
let files = 0;

const stateful = {
  analytics: () => analytics(),
  approval: () => approval(),
  audit: () => audit({ file: join(dir, `audit-${files++}.jsonl`), durability: "write" }),
  cache: () => cache({ tools: "*" }),
  circuitBreaker: () => circuitBreaker(),
  loopGuard: () => loopGuard(),
  rateLimit: () => rateLimit({ max: 3, per: "1m" }),
};

const stateless = {
  debugLog: () => debugLog({ logger: { info: () => {}, warn: () => {}, error: () => {} } as never }),
  guardrails: () => guardrails({ deny: ["drop_table"] }),
  redact: () => redact(),
  retry: () => retry(),
  timeout: () => timeout({ ms: 1000 }),
};

describe("stateful packs of @toolware/packs", () => {
  for (const [name, make] of Object.entries(stateful)) {
    it(`${name}: a second registration of one instance on a layer is refused; a new instance is fine`, () => {
      const hooks = new ToolHooks();
      const pack = make();
      expect(pack.stateful).toBe(true);
      hooks.use(pack);
      let error: unknown;
      try {
        hooks.use(pack);
      } catch (e) {
        error = e;
      }
      expect(toolwareCode(error)).toBe("TOOLWARE_DUPLICATE_PACK");
      expect((error as Error).message).toMatch(/call the pack's factory again/);
      // Narrowed by the conditional pack, it still shares the same counters: refused too.
      expect(() => hooks.use(forTools(["web_search"], pack))).toThrow(/already registered/);
      expect(() => hooks.use(make())).not.toThrow();
    });
  }

  for (const [name, make] of Object.entries(stateless)) {
    it(`${name}: keeps nothing per call, so it may be registered twice`, () => {
      const hooks = new ToolHooks();
      const pack = make();
      expect(pack.stateful).not.toBe(true);
      hooks.use(pack);
      expect(() => hooks.use(pack)).not.toThrow();
    });
  }
});
