import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { messageOf } from "@toolware/core";
import type { OutputCheck } from "./result.js";

type Validator = (value: unknown) => { valid: boolean; errorMessage?: string };

interface Provider {
  getValidator(schema: unknown): Validator;
}

function providerOf(client: Client): Provider | undefined {
  const provider: unknown = Reflect.get(client, "_jsonSchemaValidator");
  return provider !== null && typeof provider === "object" && typeof (provider as Provider).getValidator === "function"
    ? (provider as Provider)
    : undefined;
}

// The SDK's own compiled validator for the tool (a private method in its types, public at run time).
function cachedValidator(client: Client, name: string): Validator | undefined {
  const get: unknown = Reflect.get(client, "getToolOutputValidator");
  return typeof get === "function" ? (get.call(client, name) as Validator | undefined) : undefined;
}

/**
 * The output schemas a guarded client has seen in the server's listings, compiled on first use with
 * the client's own JSON Schema validator (the one its `callTool` uses), or, failing that, the SDK's
 * cached validator for the tool.
 * @internal
 */
export function outputChecks(client: Client): {
  remember(name: string, schema: unknown): void;
  get(name: string): OutputCheck | undefined;
} {
  const schemas = new Map<string, unknown>();
  const compiled = new Map<string, OutputCheck>();
  const check =
    (validate: Validator): OutputCheck =>
    (structured) => {
      const verdict = validate(structured);
      return verdict.valid ? undefined : (verdict.errorMessage ?? "it does not match the output schema");
    };
  return {
    remember(name, schema) {
      if (schemas.get(name) === schema) return;
      compiled.delete(name);
      if (schema === undefined) schemas.delete(name);
      else schemas.set(name, schema);
    },
    get(name) {
      const known = compiled.get(name);
      if (known !== undefined || !schemas.has(name)) return known;
      let validate: Validator | undefined;
      try {
        validate = providerOf(client)?.getValidator(schemas.get(name)) ?? cachedValidator(client, name);
      } catch (error) {
        // A schema the validator cannot compile checks nothing: every structured result fails closed.
        const reason = `the output schema cannot be compiled: ${messageOf(error)}`;
        return () => reason;
      }
      if (validate === undefined) return undefined;
      const made = check(validate);
      compiled.set(name, made);
      return made;
    },
  };
}
