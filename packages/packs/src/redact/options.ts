import { normalizeName } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { checkBoolean, checkKeys, checkOptionsObject } from "../internal/options.js";
import type { Placeholders } from "./detectors.js";
import type { RedactTextOptions } from "./engine.js";

export const PREFIX = "toolware/redact";

export const DEFAULT_PLACEHOLDERS: Placeholders = {
  secret: "[REDACTED]",
  email: "[EMAIL-REDACTED]",
  card: "[CARD-REDACTED]",
  custom: "[REDACTED]",
};

const OPTION_KEYS = ["secrets", "emails", "cards", "keys", "patterns", "replacers", "placeholders", "maxDepth"];
// What other redaction libraries (and a first guess) call these options.
const ALIASES: Readonly<Record<string, string>> = {
  secret: "secrets",
  email: "emails",
  card: "cards",
  creditCards: "cards",
  key: "keys",
  secretKeys: "keys",
  keyNames: "keys",
  sensitiveKeys: "keys",
  pattern: "patterns",
  customPatterns: "patterns",
  rules: "patterns",
  replacer: "replacers",
  placeholder: "placeholders",
  replacement: "placeholders",
  mask: "placeholders",
  depth: "maxDepth",
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Your patterns, global; a sticky (`y`) pattern would only match where the previous match ended, so `y` goes. */
export function compilePatterns(patterns: unknown): RegExp[] {
  if (patterns === undefined) return [];
  if (!Array.isArray(patterns)) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`patterns\` must be an array of RegExps or strings, got ${shown(patterns)}`,
    );
  }
  return patterns.map((p: unknown, i) => {
    if (p instanceof RegExp) return new RegExp(p.source, `${p.flags.replace(/[gy]/g, "")}g`);
    if (typeof p === "string" && p !== "") return new RegExp(escapeRegExp(p), "g");
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: patterns[${i}] must be a RegExp or a non-empty string, got ${shown(p)}`,
    );
  });
}

function checkKeyNames(keys: unknown): void {
  if (keys === undefined) return;
  if (!Array.isArray(keys)) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`keys\` must be an array of key names, got ${shown(keys)}`,
    );
  }
  keys.forEach((k: unknown, i) => {
    // A name that normalises to nothing ("---") would silently protect no key.
    if (typeof k !== "string" || normalizeName(k) === "") {
      throw packTypeError(
        "TOOLWARE_INVALID_OPTION",
        `${PREFIX}: \`keys\` must be an array of key names with a letter or digit; keys[${i}] is ${shown(k)}`,
      );
    }
  });
}

function checkPlaceholders(placeholders: unknown): void {
  if (placeholders === undefined) return;
  checkOptionsObject(placeholders, `${PREFIX}: \`placeholders\` must be an object { secret?, email?, card?, custom? }`);
  checkKeys(placeholders as object, Object.keys(DEFAULT_PLACEHOLDERS), PREFIX, { what: "unknown placeholder" });
  for (const [k, v] of Object.entries(placeholders as object)) {
    if (typeof v !== "string") {
      throw packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: placeholders.${k} must be a string, got ${shown(v)}`);
    }
  }
}

/** Checks the shared options; `extra` lists keys the caller handles. */
export function checkRedactOptions(options: unknown, extra: readonly string[] = []): RedactTextOptions {
  if (options === undefined) return {};
  checkOptionsObject(
    options,
    `${PREFIX}: options must be an object { secrets?, emails?, cards?, keys?, patterns?, … }`,
  );
  checkKeys(options as object, [...OPTION_KEYS, ...extra], PREFIX, { aliases: ALIASES });
  const o = options as RedactTextOptions;
  for (const k of ["secrets", "emails", "cards"] as const) checkBoolean(o[k], k, PREFIX);
  checkKeyNames(o.keys);
  if (o.replacers !== undefined && (!Array.isArray(o.replacers) || o.replacers.some((r) => typeof r !== "function"))) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`replacers\` must be an array of functions, got ${shown(o.replacers)}`,
    );
  }
  checkPlaceholders(o.placeholders);
  if (o.maxDepth !== undefined && !(Number.isInteger(o.maxDepth) && o.maxDepth > 0)) {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`maxDepth\` must be a positive integer, got ${shown(o.maxDepth)}`,
    );
  }
  compilePatterns(o.patterns);
  return o;
}
