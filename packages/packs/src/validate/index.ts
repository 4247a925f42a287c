import type { StandardSchemaV1 } from "@standard-schema/spec";
import { definePack, normalizeName, type Pack, type ToolCallHookContext } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { isPlainObject, writeInPlace } from "../internal/in-place.js";
import {
  checkBoolean,
  checkFunction,
  checkKeys,
  checkOptionsObject,
  checkPriority,
  ownOptions,
} from "../internal/options.js";
import { isThenable } from "../internal/thenable.js";
import { formatIssues } from "./issues.js";

export type { ToolSelector } from "../internal/tool-selector.js";
export { formatIssues, formatPath } from "./issues.js";
export { type CheckPathOptions, checkPath, checkRealPath, type PathCheck } from "./path-check.js";
export { type QueryRulesOptions, queryRules } from "./query.js";
export { type SafePathOptions, safePath } from "./safe-path.js";

/** What a custom `message` receives when an input is invalid. */
export interface ValidationFailure {
  readonly toolName: string;
  readonly issues: readonly StandardSchemaV1.Issue[];
  /** The issues as one readable line (`path: message; …`). */
  readonly summary: string;
}

/** Options of {@link validate}. */
export interface ValidateOptions {
  /** A Standard Schema (zod, valibot, arktype, …) per tool name; names are compared normalised. */
  schemas: Readonly<Record<string, StandardSchemaV1>>;
  /** Block tools that have no schema. Default false (they pass unchecked). */
  requireSchema?: boolean;
  /** Write the validated (coerced, stripped) value back into `ctx.toolInput`. Default true. */
  writeBack?: boolean;
  /** How many issues the reason lists. Default 5. */
  maxIssues?: number;
  /** The reason the agent reads. Default: `invalid input for <tool>: <summary>`. */
  message?: (failure: ValidationFailure) => string;
  /** Chain position. Default 0. */
  priority?: number;
}

const PREFIX = "toolware/validate";
const OPTION_KEYS = ["schemas", "requireSchema", "writeBack", "maxIssues", "message", "priority"];

function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = (value as { "~standard"?: { version?: unknown; validate?: unknown } } | null)?.["~standard"];
  return typeof props === "object" && props !== null && props.version === 1 && typeof props.validate === "function";
}

const invalid = (message: string) => packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: ${message}`);

function compileSchemas(schemas: unknown): Map<string, StandardSchemaV1> {
  if (schemas === null || typeof schemas !== "object" || Array.isArray(schemas)) {
    throw invalid(`\`schemas\` must be an object { [toolName]: schema }, got ${shown(schemas)}`);
  }
  const byName = new Map<string, StandardSchemaV1>();
  for (const [name, schema] of Object.entries(schemas)) {
    const key = normalizeName(name);
    if (key === "" || /[*?]/.test(key))
      throw invalid(`\`schemas\` takes exact tool names, got ${JSON.stringify(name)}`);
    if (!isStandardSchema(schema)) {
      throw invalid(`the schema for ${name} is not a Standard Schema (no "~standard" v1 validate)`);
    }
    if (byName.has(key)) throw invalid(`two schemas for the tool ${key}`);
    byName.set(key, schema);
  }
  if (byName.size === 0) throw invalid("`schemas` is empty");
  return byName;
}

function checkOptions(options: ValidateOptions): void {
  checkOptionsObject(options, `${PREFIX}: validate() takes { schemas }`);
  checkKeys(options, OPTION_KEYS, PREFIX, { aliases: { schema: "schemas", strict: "requireSchema" } });
  const { requireSchema, writeBack, maxIssues, message, priority } = options;
  checkBoolean(requireSchema, "requireSchema", PREFIX);
  checkBoolean(writeBack, "writeBack", PREFIX);
  if (maxIssues !== undefined && !(Number.isInteger(maxIssues) && maxIssues > 0)) {
    throw invalid(`\`maxIssues\` must be a positive integer, got ${shown(maxIssues)}`);
  }
  checkFunction(message, "message", PREFIX);
  checkPriority(priority, PREFIX);
}

/**
 * Validates each tool's input with its Standard Schema (zod 4, valibot 1,
 * arktype, …) before the tool runs. A valid input is replaced, in place, by
 * the schema's output: coerced values are written and keys the schema strips
 * are deleted. An invalid input blocks the call with a reason listing the
 * issues (`path: message`). A guard: a throwing schema blocks too.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * hooks.use(validate({ schemas: { web_search: z.object({ query: z.string().min(3), limit: z.coerce.number().default(5) }) } }));
 * const out = await hooks.invoke(search, { query: "ai" });
 * // out.reason === "invalid input for web_search: query: Too small: expected string to have >=3 characters"
 * ```
 */
export function validate(options: ValidateOptions): Pack {
  options = ownOptions(options, PREFIX);
  checkOptions(options);
  const schemas = compileSchemas(options.schemas);
  const { requireSchema = false, writeBack = true, maxIssues = 5, message } = options;
  // Normalising costs a few regex passes: once per tool name, not once per call.
  const lookup = new Map<string, StandardSchemaV1 | null>();
  const schemaFor = (toolName: string): StandardSchemaV1 | null => {
    let schema = lookup.get(toolName);
    if (schema === undefined) {
      schema = schemas.get(normalizeName(toolName)) ?? null;
      if (lookup.size >= 10_000) lookup.clear();
      lookup.set(toolName, schema);
    }
    return schema;
  };

  const apply = (ctx: ToolCallHookContext, result: StandardSchemaV1.Result<unknown>): void => {
    if (result === null || typeof result !== "object") {
      throw packTypeError(
        "TOOLWARE_INVALID_RETURN",
        `${PREFIX}: the schema for ${ctx.toolName} returned ${shown(result)}, not a result { value } or { issues }`,
      );
    }
    if (result.issues !== undefined && result.issues !== null) {
      const issues = [...result.issues];
      const summary = issues.length === 0 ? "(no details)" : formatIssues(issues, maxIssues);
      const reason = message?.({ toolName: ctx.toolName, issues, summary });
      ctx.block(reason === undefined ? `invalid input for ${ctx.toolName}: ${summary}` : String(reason));
      return;
    }
    if (!writeBack) return;
    const value = (result as StandardSchemaV1.SuccessResult<unknown>).value;
    if (!isPlainObject(value)) {
      ctx.block(
        `the schema for ${ctx.toolName} produced ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}, not an object`,
      );
      return;
    }
    writeInPlace(ctx.toolInput as Record<string, unknown>, value, "replace");
  };

  function validateInput(ctx: ToolCallHookContext): void | Promise<void> {
    const schema = schemaFor(ctx.toolName);
    if (schema === null) {
      if (requireSchema) ctx.block(`no input schema is registered for ${ctx.toolName}`);
      return;
    }
    const result = schema["~standard"].validate(ctx.toolInput);
    if (isThenable(result)) return Promise.resolve(result).then((r) => apply(ctx, r));
    apply(ctx, result);
  }

  return definePack({
    name: "validate",
    hooks: [
      {
        kind: "before",
        fn: validateInput,
        options: {
          name: "validate",
          onError: "block",
          priority: options.priority ?? 0,
          // Without requireSchema the hook only needs to run for tools that have a schema.
          ...(requireSchema ? {} : { tools: Object.keys(options.schemas) }),
        },
      },
    ],
  });
}
