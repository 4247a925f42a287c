import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkPolicyReference, pageTables, referenceTables, typeText } from "./check-policy-reference.js";

const page = readFileSync(new URL("../docs/policy.md", import.meta.url), "utf8");
const schema = JSON.parse(readFileSync(new URL("../packages/policy/schema.json", import.meta.url), "utf8"));

describe("the File reference of docs/policy.md", () => {
  it("agrees with schema.json: every object, key, type and default", () => {
    expect(checkPolicyReference()).toEqual([]);
    expect(pageTables(page).length).toBe(referenceTables(schema).length);
  });

  it("fails when a key is missing, extra, of another type or another default, or a table has no object", () => {
    const broken = page
      .replace(/\| `defaultReason` +\| string +\|/, "| `defaultReasons` | string |")
      .replace(/\| `mode` +\| `enforce` or `shadow` +\| `enforce` +\|/, "| `mode` | string | `enforce` |")
      .replace(/\| `onTimeout` +\| `deny` or `allow` +\| `deny` +\|/, "| `onTimeout` | `deny` or `allow` | `allow` |")
      .replace("### `rules[].packs.cache`", "### `rules[].packs.kache`");
    expect(checkPolicyReference(broken, schema)).toEqual([
      expect.stringMatching(/`mode` is `enforce` or `shadow` in the schema, the page says string$/),
      expect.stringMatching(/Top level does not list `defaultReason`$/),
      expect.stringMatching(/Top level has no key `defaultReasons` in the schema$/),
      expect.stringMatching(/`onTimeout` defaults to `deny` in the schema, the page says `allow`$/),
      "docs/policy.md: no table for `rules[].packs.cache` (a heading naming it, then | key | type | default |)",
      expect.stringMatching(/the schema has no object `rules\[\]\.packs\.kache`$/),
    ]);
    expect(checkPolicyReference("# no reference\n", schema).length).toBe(referenceTables(schema).length);
  });

  it("writes the schema's types as the page does", () => {
    expect(typeText({ type: "array", items: { type: "string" } })).toBe("list of strings");
    expect(typeText({ anyOf: [{ type: "integer" }, { const: false }] })).toBe("integer or `false`");
    expect(typeText({ type: "object", additionalProperties: { type: "number" } })).toBe("map of numbers");
  });
});
