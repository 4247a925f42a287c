import { createHash } from "node:crypto";
import { closestKey, ToolwareTypeError } from "@toolware/core";
import { createEngine, type LoadedPolicy } from "./engine.js";
import { ANNOTATIONS, policyFacts } from "./policies.js";
import { checkSchema } from "./schema.js";
import { cedarLoadError, type DetailedError, describe, fail, type Located, policyRanges, spanAt } from "./source.js";
import type { CedarEngine, CompileCedarOptions } from "./types.js";
import { type CedarWasm, loadCedarWasm } from "./wasm.js";

const OPTIONS = ["policies", "file", "locate", "path", "schema", "schemaFile", "locateSchema", "schemaPath"];

function checkOptions(options: CompileCedarOptions): void {
  if (options === null || typeof options !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "compileCedar(options): options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (!OPTIONS.includes(key)) {
      const hint = closestKey(key, OPTIONS);
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `compileCedar(): unknown option \`${key}\` (${hint === undefined ? "" : `did you mean \`${hint}\`? `}expected one of: ${OPTIONS.join(", ")})`,
      );
    }
  }
  for (const key of ["policies", "file"] as const) {
    if (typeof options[key] !== "string") {
      throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `compileCedar(): \`${key}\` must be a string`);
    }
  }
  for (const key of ["schema", "schemaFile"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "string") {
      throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `compileCedar(): \`${key}\` must be a string`);
    }
  }
  for (const key of ["path", "schemaPath"] as const) {
    const path = options[key];
    if (
      path !== undefined &&
      (!Array.isArray(path) || !path.every((p) => typeof p === "string" || typeof p === "number"))
    ) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `compileCedar(): \`${key}\` must be a key path (strings and numbers)`,
      );
    }
  }
  for (const key of ["locate", "locateSchema"] as const) {
    if (options[key] !== undefined && typeof options[key] !== "function") {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `compileCedar(): \`${key}\` must be a function (line, column) => span`,
      );
    }
  }
}

function annotationsOf(
  source: Located,
  start: number,
  cedarId: string,
  annotations: Readonly<Record<string, string | null>>,
  effect: string,
) {
  const at = spanAt(source, start);
  for (const key of Object.keys(annotations)) {
    if (!(ANNOTATIONS as readonly string[]).includes(key)) {
      const hint = closestKey(key, ANNOTATIONS);
      const message = `unknown annotation @${key} on Cedar policy ${cedarId} (the engine reads @${ANNOTATIONS.join(", @")})`;
      throw cedarLoadError(source, at, message, hint === undefined ? undefined : `@${hint}`);
    }
  }
  const approval = annotations.requireApproval;
  if (approval !== undefined && approval !== null && approval !== "true" && approval !== "false") {
    throw cedarLoadError(source, at, `@requireApproval takes no value, "true" or "false", got "${approval}"`);
  }
  const requireApproval = approval === null || approval === "true";
  if (requireApproval && effect === "forbid")
    throw cedarLoadError(source, at, "@requireApproval belongs on a `permit`: a `forbid` denies");
  const id = annotations.id ?? cedarId;
  const reason = annotations.reason ?? undefined;
  return { at, id, requireApproval, ...(reason === undefined ? {} : { reason }) };
}

function loadPolicies(cedar: CedarWasm, source: Located): LoadedPolicy[] {
  const parsed = cedar.checkParsePolicySet({ staticPolicies: source.text });
  if (parsed.type === "failure") fail(source, parsed.errors, "Cedar could not parse the policies");
  const policies: LoadedPolicy[] = [];
  for (const [index, range] of policyRanges(source.text).entries()) {
    const cedarId = `policy${index}`;
    const json = cedar.policyToJson(source.text.slice(range.start, range.end));
    if (json.type === "failure") {
      throw cedarLoadError(
        source,
        spanAt(source, range.start),
        `Cedar policy ${cedarId}: ${describe(json.errors[0] as DetailedError)} (templates, with ?principal or ?resource, are not supported)`,
      );
    }
    let facts: ReturnType<typeof policyFacts>;
    try {
      facts = policyFacts(json.json);
    } catch (error) {
      throw cedarLoadError(source, spanAt(source, range.start), `Cedar policy ${cedarId}: ${(error as Error).message}`);
    }
    const info = annotationsOf(source, range.start, cedarId, facts.annotations, facts.effect);
    const twin = policies.find((p) => p.id === info.id);
    if (twin !== undefined) {
      throw cedarLoadError(
        source,
        info.at,
        `two Cedar policies are named \`${info.id}\` (the other at line ${twin.at.line}): decisions name their policy, so names are unique`,
      );
    }
    policies.push({ ...info, effect: facts.effect, facts });
  }
  return policies;
}

/** The union of what the policies read of `context`, or `undefined` when one reads all of it. */
function contextKeysOf(policies: readonly LoadedPolicy[]): Set<string> | undefined {
  const keys = new Set<string>();
  for (const { facts } of policies) {
    if (facts.contextKeys === undefined) return undefined;
    for (const key of facts.contextKeys) keys.add(key);
  }
  return keys;
}

/**
 * Parses Cedar policies once, validates them against the schema (when given), and returns the engine that decides
 * tool calls with them. The request is `Agent::"<role>"` (in `Crew::"<crew>"`), else `Caller::"<id>"`, else
 * `Anonymous::"anonymous"`; `Action::"call"`; `Tool::"<name>"` (in `Tag::"<tag>"`, with `name`, `tags`,
 * `destructive`, `readOnly`, `idempotent`, `openWorld`); and the arguments as `context`. A parse or validation
 * error, or a policy that can never apply to a call, throws `TOOLWARE_POLICY_INVALID` with `FILE:LINE:COLUMN`.
 *
 * @example
 * ```ts
 * const engine = await compileCedar({
 *   file: "toolware.cedar",
 *   policies: '@reason("juniors cannot delete") forbid(principal == Agent::"junior", action, resource == Tool::"delete_file");',
 * });
 * engine.decide({ tool: "delete_file", agent: "junior", args: { path: "a.txt" } });
 * // { effect: "deny", policies: ["policy0"], reason: "juniors cannot delete" }
 * engine.covers("read_file"); // false: no policy can apply, the call never reaches Cedar
 * ```
 */
export async function compileCedar(options: CompileCedarOptions): Promise<CedarEngine> {
  checkOptions(options);
  const cedar = await loadCedarWasm();
  const source: Located = {
    text: options.policies,
    file: options.file,
    locate: options.locate,
    path: options.path ?? [],
  };
  const policies = loadPolicies(cedar, source);
  if (options.schema !== undefined) {
    const schema: Located = {
      text: options.schema,
      file: options.schemaFile ?? options.file,
      locate: options.locateSchema,
      path: options.schemaPath ?? [],
    };
    checkSchema(cedar, schema, source, policies);
  }
  // Same text, same slot: a reload of an unchanged file reuses Cedar's cache entry instead of adding one.
  const setId = `toolware:${createHash("sha256").update(options.policies).digest("hex")}`;
  const prepared = cedar.preparsePolicySet(setId, { staticPolicies: options.policies });
  if (prepared.type === "failure") fail(source, prepared.errors, "Cedar could not load the policies");
  return createEngine(cedar, setId, policies, contextKeysOf(policies));
}
