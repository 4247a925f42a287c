// The pack options a file may hold are the real packs' own: every random set the loader accepts builds the pack.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { audit } from "@toolware/packs/audit";
import { cache } from "@toolware/packs/cache";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { loopGuard } from "@toolware/packs/loop-guard";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";
import { retry } from "@toolware/packs/retry";
import { timeout } from "@toolware/packs/timeout";
import { queryRules, safePath, validate } from "@toolware/packs/validate";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { checkPolicyObject, type PacksDoc } from "../index.js";
import { loopGuardOptions, rateLimitOptions } from "../runtime/keys.js";
import { packsSpec } from "./spec-packs.js";
import { sampleOf } from "./test-fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "policy-packs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Options = Record<string, unknown>;
// What the runtime does with the two kinds of value a file holds and a pack does not: a store reference becomes a
// store (here: left out, the pack's own memory store), the rule's match becomes `tools` where a pack needs it.
const data = (options: unknown): Options => {
  const { store: _store, ...rest } = options as Options;
  return rest;
};
const schema = { "~standard": { version: 1, vendor: "test", validate: (value: unknown) => ({ value }) } } as const;

const build: { [K in keyof Required<PacksDoc>]: (options: Options) => { close?: () => void } | unknown } = {
  redact: (o) => redact(o),
  validate: (o) => {
    const { safePath: sp, query, ...own } = o;
    if (sp !== undefined) safePath({ tools: "*", ...(sp as Options) } as never);
    if (query !== undefined) queryRules({ tools: "*", ...(query as Options) } as never);
    return validate({ schemas: { some_tool: schema }, ...own } as never);
  },
  "rate-limit": (o) => rateLimit(rateLimitOptions(o as never, undefined) as never),
  cache: (o) => cache({ tools: "*", ...o } as never),
  "loop-guard": (o) => loopGuard(loopGuardOptions(o as never, undefined) as never),
  timeout: (o) => timeout(o as never),
  retry: (o) => retry(o as never),
  "circuit-breaker": (o) => circuitBreaker(o as never),
  audit: (o) => audit({ ...o, file: join(dir, "audit.jsonl") } as never),
};

describe("pack options in a file", () => {
  for (const [name, field] of Object.entries(packsSpec.fields)) {
    it(`${name}: every set the loader accepts builds the real pack`, () => {
      fc.assert(
        fc.property(sampleOf(field.spec), ({ raw }) => {
          let loaded: ReturnType<typeof checkPolicyObject>;
          try {
            loaded = checkPolicyObject({
              version: 1,
              default: "allow",
              rules: [{ name: "r", packs: { [name]: raw } }],
            });
          } catch {
            // Refused by the loader (minLength over maxLength, …): these tests are about what it accepts.
            fc.pre(false);
            return;
          }
          const options = (loaded.document.rules[0]?.packs as Record<string, unknown> | undefined)?.[name];
          const pack = build[name as keyof PacksDoc](data(options)) as { close?: () => void };
          pack.close?.();
        }),
        { numRuns: 60 },
      );
    });
  }

  it("covers every pack the descriptor names", () => {
    expect(Object.keys(build).sort()).toEqual(Object.keys(packsSpec.fields).sort());
  });
});
