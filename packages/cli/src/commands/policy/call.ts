import { closestKey } from "@toolware/core";
import type { AnnotationsMatch } from "@toolware/policy";
import { usageError } from "../kit.js";

/** The MCP annotations a call can carry (`--annotations destructiveHint=true`). */
export const ANNOTATION_NAMES = ["destructiveHint", "readOnlyHint", "idempotentHint", "openWorldHint"] as const;

/** `--args '{"path":"a"}'`: a JSON object, or a usage error carrying the parser's message. */
export function argsOption(text: string | undefined): Readonly<Record<string, unknown>> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(`--args is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const got = value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
    throw usageError(`--args takes a JSON object (the tool's arguments), got ${got}`);
  }
  return value as Record<string, unknown>;
}

/** `--tags a,b`: names separated by commas; an empty name is refused. */
export function tagsOption(text: string | undefined): readonly string[] | undefined {
  if (text === undefined) return undefined;
  const tags = text.split(",").map((t) => t.trim());
  if (tags.some((t) => t === ""))
    throw usageError(`--tags takes names separated by commas, got ${JSON.stringify(text)}`);
  return tags;
}

/** `--annotations destructiveHint=true,readOnlyHint=false`: each MCP annotation once, true or false. */
export function annotationsOption(text: string | undefined): AnnotationsMatch | undefined {
  if (text === undefined) return undefined;
  const out: Record<string, boolean> = {};
  for (const entry of text.split(",")) {
    const [key = "", value, ...rest] = entry.split("=").map((p) => p.trim());
    if (!(ANNOTATION_NAMES as readonly string[]).includes(key)) {
      const close = closestKey(key, ANNOTATION_NAMES);
      const hint = close === undefined ? "" : ` (did you mean ${close}?)`;
      throw usageError(
        `--annotations: unknown annotation ${JSON.stringify(key)}${hint}; known: ${ANNOTATION_NAMES.join(", ")}`,
      );
    }
    if ((value !== "true" && value !== "false") || rest.length > 0) {
      throw usageError(`--annotations: ${key} takes =true or =false, got ${JSON.stringify(entry)}`);
    }
    if (Object.hasOwn(out, key)) throw usageError(`--annotations: ${key} is given twice`);
    out[key] = value === "true";
  }
  return out;
}
