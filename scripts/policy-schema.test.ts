import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { schemaIsCurrent, schemaText } from "./policy-schema.js";

describe("packages/policy/schema.json", () => {
  it("is what the descriptor gives (run npx tsx scripts/policy-schema.ts after changing load/spec.ts)", () => {
    expect(schemaIsCurrent()).toBe(true);
  });

  it("is found stale when it differs from the descriptor", () => {
    const dir = mkdtempSync(join(tmpdir(), "policy-schema-"));
    try {
      const stale = JSON.parse(schemaText()) as { properties: Record<string, unknown> };
      delete stale.properties.mode;
      writeFileSync(join(dir, "schema.json"), JSON.stringify(stale));
      expect(schemaIsCurrent(join(dir, "schema.json"))).toBe(false);
      writeFileSync(join(dir, "current.json"), schemaText());
      expect(schemaIsCurrent(join(dir, "current.json"))).toBe(true);
      expect(schemaIsCurrent(join(dir, "missing.json"))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
