import { policySpec } from "./spec.js";
import { type Field, MAX_DURATION_MS, MAX_STRING, type Spec } from "./spec-types.js";

/** A JSON Schema node (draft 2020-12), as plain data. */
export type JsonSchema = { readonly [key: string]: unknown };

/** The pattern of a duration string, as the checker reads it. */
export const DURATION_PATTERN = "^\\d{1,15}(?:\\.\\d{1,6})?(?:ms|s|m|h|d)$";

// A default written as `literal` in the descriptor is a value an editor can offer; the others are prose.
function literalDefault(text: string | undefined): { value: unknown } | undefined {
  const m = text === undefined ? null : /^`([^`]*)`$/.exec(text);
  if (m === null) return undefined;
  const raw = m[1] as string;
  if (raw === "true" || raw === "false") return { value: raw === "true" };
  if (/^-?\d+(?:\.\d+)?$/.test(raw)) return { value: Number(raw) };
  if (raw === '""') return { value: "" };
  return { value: raw };
}

/** The description of a field as the schema (and so an editor's hover) shows it: what it is, then its default. */
export function fieldDescription(field: Field): string {
  return field.default === undefined ? field.description : `${field.description} Default: ${field.default}.`;
}

function property(field: Field): JsonSchema {
  const node = { ...schemaOf(field.spec), description: fieldDescription(field) };
  const literal = literalDefault(field.default);
  // A duration's literal default ("5m") is not a value of every branch; it is left to the description.
  return literal === undefined || field.spec.kind === "duration" ? node : { ...node, default: literal.value };
}

function schemaOf(spec: Spec): JsonSchema {
  switch (spec.kind) {
    case "object": {
      const properties: Record<string, JsonSchema> = {};
      for (const [key, field] of Object.entries(spec.fields)) properties[key] = property(field);
      const required = Object.entries(spec.fields)
        .filter(([, f]) => f.required === true)
        .map(([k]) => k);
      return {
        type: "object",
        properties,
        ...(required.length > 0 ? { required } : {}),
        additionalProperties: false,
        ...spec.schemaExtra,
      };
    }
    case "record":
      return { type: "object", propertyNames: { minLength: 1 }, additionalProperties: schemaOf(spec.values) };
    case "array":
      return {
        type: "array",
        items: schemaOf(spec.items),
        ...(spec.minItems !== undefined ? { minItems: spec.minItems } : {}),
        ...(spec.maxItems !== undefined ? { maxItems: spec.maxItems } : {}),
      };
    case "string":
      if (spec.enum !== undefined) return { type: "string", enum: [...spec.enum] };
      return {
        type: "string",
        ...(spec.minLength !== undefined && spec.minLength > 0 ? { minLength: spec.minLength } : {}),
        maxLength: spec.maxLength ?? MAX_STRING,
        ...(spec.patternText !== undefined ? { pattern: spec.patternText } : {}),
      };
    case "number":
      return {
        type: spec.integer === true ? "integer" : "number",
        ...(spec.minimum !== undefined ? { minimum: spec.minimum } : {}),
        ...(spec.maximum !== undefined ? { maximum: spec.maximum } : {}),
      };
    case "boolean":
      return { type: "boolean" };
    case "const":
      return { const: spec.value };
    case "duration":
      return {
        anyOf: [
          {
            type: "number",
            ...(spec.allowZero === true ? { minimum: 0 } : { exclusiveMinimum: 0 }),
            maximum: MAX_DURATION_MS,
          },
          { type: "string", pattern: DURATION_PATTERN },
        ],
      };
    case "choice":
      return { anyOf: spec.options.map(schemaOf) };
  }
}

/**
 * The JSON Schema of a policy file, made from the same descriptor as the checker: `schema.json` is this, written
 * by `scripts/policy-schema.ts` (a test fails when the file is stale).
 */
export function policyJsonSchema(): JsonSchema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    title: "toolware policy",
    description:
      "A toolware policy file (@toolware/policy): rules that match tool calls and decide, packs they attach, Cedar policies. Reference: docs/policy.md.",
    ...schemaOf(policySpec),
  };
}
