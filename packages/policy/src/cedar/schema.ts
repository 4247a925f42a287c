import type { LoadedPolicy } from "./engine.js";
import { cedarLoadError, fail, type Located, spanAt } from "./source.js";
import type { CedarWasm } from "./wasm.js";

type Schema = Parameters<CedarWasm["checkParseSchema"]>[0];

/** The attributes the engine gives each entity type: a schema that promises others would fail every call reading them. */
const SENT: Readonly<Record<string, readonly string[]>> = {
  Tool: ["name", "tags", "destructive", "readOnly", "idempotent", "openWorld"],
  Agent: [],
  Caller: [],
  Anonymous: [],
  Crew: [],
  Tag: [],
};

function parseSchema(schema: Located): Schema {
  if (!schema.text.trimStart().startsWith("{")) return schema.text;
  try {
    return JSON.parse(schema.text) as Schema;
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message);
    throw cedarLoadError(
      schema,
      spanAt(schema, at ? Number(at[1]) : 0),
      `the Cedar schema is not valid JSON: ${(error as Error).message}`,
    );
  }
}

/** Checks what the schema says about the entities the engine sends. */
function checkModel(cedar: CedarWasm, schema: Located, parsed: Schema): void {
  const json = cedar.schemaToJson(parsed);
  if (json.type === "failure") fail(schema, json.errors, "Cedar could not read the schema");
  const root = json.json[""];
  if (root?.actions.call === undefined) {
    throw cedarLoadError(
      schema,
      spanAt(schema, 0),
      'the Cedar schema declares no action `call` (outside any namespace): every tool call is `Action::"call"`',
    );
  }
  for (const [type, definition] of Object.entries(root.entityTypes)) {
    const sent = SENT[type];
    const shape = ("shape" in definition ? definition.shape : undefined) as { attributes?: object } | undefined;
    if (sent === undefined || shape?.attributes === undefined) continue;
    for (const attribute of Object.keys(shape.attributes)) {
      if (!sent.includes(attribute)) {
        const has = sent.length === 0 ? "none" : sent.join(", ");
        throw cedarLoadError(
          schema,
          spanAt(schema, Math.max(schema.text.indexOf(attribute), 0)),
          `the Cedar schema gives \`${type}\` the attribute \`${attribute}\`, which the engine never sends (it sends: ${has})`,
        );
      }
    }
  }
}

/** Parses the schema and validates the policies against it (Cedar's strict mode); throws a located load error. */
export function checkSchema(
  cedar: CedarWasm,
  schema: Located,
  policies: Located,
  loaded: readonly LoadedPolicy[],
): void {
  const parsed = parseSchema(schema);
  const check = cedar.checkParseSchema(parsed);
  if (check.type === "failure") fail(schema, check.errors, "Cedar could not parse the schema");
  checkModel(cedar, schema, parsed);
  const answer = cedar.validate({
    schema: parsed,
    policies: { staticPolicies: policies.text },
    validationSettings: { mode: "strict" },
  });
  if (answer.type === "failure") fail(schema, answer.errors, "Cedar could not validate the policies");
  // Cedar only warns of a policy no valid request can satisfy; here it is a guard switched off, often by a typo.
  const impossible = answer.validationWarnings.find((w) => /policy is impossible/.test(w.error.message));
  if (impossible !== undefined) {
    const policy = loaded[Number(impossible.policyId.slice(6))] as LoadedPolicy;
    throw cedarLoadError(
      policies,
      policy.at,
      `Cedar policy \`${policy.id}\` can never apply under the schema: ${impossible.error.message.replace(/^for policy `\w+`, /, "")}`,
    );
  }
  if (answer.validationErrors.length === 0) return;
  // Cedar names policies `policyN`; the file names them by `@id`.
  const errors = answer.validationErrors.map(({ policyId, error }) => {
    const id = loaded[Number(policyId.slice(6))]?.id ?? policyId;
    return { ...error, message: error.message.replaceAll(`\`${policyId}\``, `\`${id}\``) };
  });
  fail(policies, errors, "a Cedar policy does not match the schema");
}
