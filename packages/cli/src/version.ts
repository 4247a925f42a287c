import { readFileSync } from "node:fs";

let cached: string | undefined;

/** The version of @toolware/cli, from its package.json (one folder up from both src/ and dist/). */
export function cliVersion(): string {
  cached ??= String(
    (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: unknown }).version,
  );
  return cached;
}
