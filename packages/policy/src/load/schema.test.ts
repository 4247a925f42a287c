// The published schema.json and the checker come from one descriptor: they must agree on every file.
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkPolicyObject } from "../index.js";
import { policyJsonSchema } from "./json-schema.js";
import { policyArb } from "./test-fixtures.js";

const schema = JSON.parse(readFileSync(new URL("../../schema.json", import.meta.url), "utf8")) as Record<
  string,
  unknown
>;
const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true, unicodeRegExp: true });
const validate = ajv.compile(schema);

function accepted(value: unknown): boolean {
  try {
    checkPolicyObject(value);
    return true;
  } catch {
    return false;
  }
}

describe("schema.json", () => {
  it("is what the descriptor gives (npx tsx scripts/policy-schema.ts writes it)", () => {
    expect(policyJsonSchema()).toEqual(schema);
  });

  it("is a strict draft 2020-12 schema with a description on every property", () => {
    const missing: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (node === null || typeof node !== "object") return;
      // The objects of the file (the if/then-like subschemas name properties without describing them again).
      const { properties, additionalProperties } = node as {
        properties?: Record<string, unknown>;
        additionalProperties?: unknown;
      };
      if (additionalProperties === false)
        for (const [key, value] of Object.entries(properties ?? {})) {
          if (typeof (value as { description?: unknown }).description !== "string") missing.push(`${at}.${key}`);
        }
      for (const [key, value] of Object.entries(node)) walk(value, `${at}.${key}`);
    };
    walk(schema, "$");
    expect(missing).toEqual([]);
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("accepts every policy the checker accepts", () => {
    fc.assert(
      fc.property(policyArb, ({ raw }) => {
        expect(accepted(raw)).toBe(true);
        expect(validate(raw) ? [] : validate.errors).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it("refuses what the checker refuses, and the other way round (but for unique rule names)", () => {
    const anything = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom(
        "allow",
        "deny",
        "approve",
        "shadow",
        "",
        "1m",
        "5 m",
        -1,
        0,
        1.5,
        null,
        true,
        false,
        "redis://x",
      ),
    );
    fc.assert(
      fc.property(policyArb, fc.array(fc.nat(), { minLength: 1 }), anything, ({ raw }, steps, value) => {
        const copy = structuredClone(raw) as Record<string, unknown>;
        let node: Record<string, unknown> = copy;
        let key = Object.keys(copy)[(steps[0] as number) % Object.keys(copy).length] as string;
        for (const step of steps.slice(1)) {
          const next = node[key];
          if (next === null || typeof next !== "object") break;
          const keys = Object.keys(next);
          if (keys.length === 0) break;
          node = next as Record<string, unknown>;
          key = keys[step % keys.length] as string;
        }
        node[key] = value;
        const byChecker = accepted(copy);
        const bySchema = validate(copy);
        const names = Array.isArray(copy.rules) ? (copy.rules as { name?: unknown }[]).map((r) => r?.name) : [];
        const uniqueNames = new Set(names).size === names.length;
        if (uniqueNames) expect([byChecker, bySchema]).toEqual([bySchema, bySchema]);
        else expect(byChecker).toBe(false);
      }),
      { numRuns: 400 },
    );
  });
});
