import { describe, expect, it } from "vitest";
import { schemaProblems } from "./schema.js";

const schema = {
  type: "object",
  properties: {
    to: { type: "string", minLength: 3, maxLength: 20, pattern: "@" },
    count: { type: "integer", minimum: 1, maximum: 5 },
    ratio: { type: "number" },
    kind: { enum: ["a", "b"] },
    tags: { type: "array", items: { type: "string" } },
    meta: { type: "object", additionalProperties: { type: "boolean" } },
  },
  required: ["to"],
};

describe("schemaProblems: an edit checked against the tool's JSON Schema", () => {
  it("accepts a fitting value and anything without a schema", () => {
    expect(
      schemaProblems(schema, { to: "a@b.c", count: 2, ratio: 1.5, kind: "a", tags: ["x"], meta: { ok: true } }),
    ).toEqual([]);
    expect(schemaProblems(undefined, { anything: 1 })).toEqual([]);
    expect(schemaProblems([1], "x")).toEqual([]);
  });

  it("names each problem by its path", () => {
    expect(schemaProblems(schema, { count: 2 })).toEqual(["$.to: required"]);
    expect(schemaProblems(schema, { to: "ab" })).toEqual(["$.to: too short", "$.to: does not match @"]);
    expect(schemaProblems(schema, { to: `${"x".repeat(20)}@` })).toEqual(["$.to: too long"]);
    expect(schemaProblems(schema, { to: "a@b", count: 1.5 })).toEqual(["$.count: expected integer, got number"]);
    expect(schemaProblems(schema, { to: "a@b", count: 0 })).toEqual(["$.count: below 1"]);
    expect(schemaProblems(schema, { to: "a@b", count: 9 })).toEqual(["$.count: above 5"]);
    expect(schemaProblems(schema, { to: "a@b", ratio: 2 })).toEqual([]);
    expect(schemaProblems(schema, { to: "a@b", kind: "c" })).toEqual(["$.kind: not one of the allowed values"]);
    expect(schemaProblems(schema, { to: "a@b", tags: ["x", 2] })).toEqual(["$.tags[1]: expected string, got integer"]);
    expect(schemaProblems(schema, { to: "a@b", meta: { ok: "yes" } })).toEqual([
      "$.meta.ok: expected boolean, got string",
    ]);
    expect(schemaProblems(schema, null)).toEqual(["$: expected object, got null"]);
    expect(schemaProblems({ type: ["string", "null"] }, null)).toEqual([]);
  });

  it("lists at most five problems", () => {
    const many = { type: "object", properties: {}, additionalProperties: false };
    const value = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i]));
    expect(schemaProblems(many, value)).toHaveLength(5);
  });
});
