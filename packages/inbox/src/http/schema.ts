// The tool's schema travels with the request as plain JSON (a JSON Schema), so an edit is checked
// here against the common keywords. Unknown keywords are ignored: the tool's own validation, which
// runs when the approved call runs, stays the last word.

type Schema = Readonly<Record<string, unknown>>;

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(expected: unknown, actual: string): boolean {
  const list = Array.isArray(expected) ? expected : [expected];
  return list.some((t) => t === actual || (t === "number" && actual === "integer"));
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkObject(schema: Schema, value: Record<string, unknown>, path: string, out: string[]): void {
  const props = isSchema(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (typeof key === "string" && !Object.hasOwn(value, key)) out.push(`${path}.${key}: required`);
    }
  }
  for (const [key, v] of Object.entries(value)) {
    const sub = props[key];
    if (isSchema(sub)) check(sub, v, `${path}.${key}`, out);
    else if (schema.additionalProperties === false) out.push(`${path}.${key}: not allowed`);
    else if (isSchema(schema.additionalProperties)) check(schema.additionalProperties, v, `${path}.${key}`, out);
  }
}

function check(schema: Schema, value: unknown, path: string, out: string[]): void {
  const actual = typeOf(value);
  if (schema.type !== undefined && !typeMatches(schema.type, actual)) {
    out.push(`${path}: expected ${String(schema.type)}, got ${actual}`);
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    out.push(`${path}: not one of the allowed values`);
  }
  if (typeof value === "string") {
    if (typeof schema.minLength === "number" && value.length < schema.minLength) out.push(`${path}: too short`);
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength) out.push(`${path}: too long`);
    if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value)) {
      out.push(`${path}: does not match ${schema.pattern}`);
    }
  }
  if (typeof value === "number") {
    if (typeof schema.minimum === "number" && value < schema.minimum) out.push(`${path}: below ${schema.minimum}`);
    if (typeof schema.maximum === "number" && value > schema.maximum) out.push(`${path}: above ${schema.maximum}`);
  }
  if (Array.isArray(value) && isSchema(schema.items)) {
    for (let i = 0; i < value.length; i++) check(schema.items, value[i], `${path}[${i}]`, out);
  }
  if (actual === "object") checkObject(schema, value as Record<string, unknown>, path, out);
}

/**
 * The problems of `value` against a JSON Schema (type, properties, required, additionalProperties,
 * enum, items, lengths, bounds, pattern); empty when it fits or when there is no schema. @internal
 */
export function schemaProblems(schema: unknown, value: unknown): string[] {
  if (!isSchema(schema)) return [];
  const out: string[] = [];
  check(schema, value, "$", out);
  return out.slice(0, 5);
}
