/**
 * Writes `packages/policy/schema.json` from the policy file's descriptor (`packages/policy/src/load/spec.ts`), the
 * one source of the checker, the schema and the file reference. A unit test fails when the file is stale.
 *
 * Run: `npx tsx scripts/policy-schema.ts` (writes), `npx tsx scripts/policy-schema.ts --check` (exit 1 when stale).
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { policyJsonSchema } from "../packages/policy/src/load/json-schema.js";

/** Where the published schema lives. */
export const SCHEMA_FILE = fileURLToPath(new URL("../packages/policy/schema.json", import.meta.url));

/** The text `schema.json` must hold. */
export function schemaText(): string {
  return `${JSON.stringify(policyJsonSchema(), null, 2)}\n`;
}

/** True when `schema.json` holds what the descriptor gives (compared as JSON: the formatter owns the layout). */
export function schemaIsCurrent(file = SCHEMA_FILE): boolean {
  try {
    return isDeepStrictEqual(JSON.parse(readFileSync(file, "utf8")), JSON.parse(schemaText()));
  } catch {
    return false;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv.includes("--check")) {
    if (!schemaIsCurrent()) {
      console.error("packages/policy/schema.json is stale: run npx tsx scripts/policy-schema.ts");
      process.exit(1);
    }
    console.log("packages/policy/schema.json is current");
  } else {
    writeFileSync(SCHEMA_FILE, schemaText());
    // The repository's formatter lays JSON out its own way; the lint step would otherwise refuse the file.
    const biome = fileURLToPath(new URL("../node_modules/.bin/biome", import.meta.url));
    execFileSync(biome, ["format", "--write", SCHEMA_FILE], { stdio: "ignore" });
    console.log("wrote packages/policy/schema.json");
  }
}
