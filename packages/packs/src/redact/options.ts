import { normalizeName } from "@toolware/core";
import { isPlainObject } from "../internal/in-place.js";
import { describe, packOptionError } from "../internal/option-error.js";
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

function isOptionsObject(value: unknown): value is Record<string, unknown> {
  try {
    return isPlainObject(value);
  } catch {
    // A Proxy whose getPrototypeOf trap throws is no options object.
    return false;
  }
}

function keyLabel(key: string): string {
  return /^[\w$]{1,64}$/.test(key) ? `\`${key}\`` : JSON.stringify(key.slice(0, 64));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Your patterns, global; a sticky (`y`) pattern would only match where the previous match ended, so `y` goes. */
export function compilePatterns(patterns: unknown): RegExp[] {
  if (patterns === undefined) return [];
  if (!Array.isArray(patterns)) {
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`patterns\` must be an array of RegExps or strings, got ${describe(patterns)}`,
    );
  }
  return patterns.map((p: unknown, i) => {
    if (p instanceof RegExp) return new RegExp(p.source, `${p.flags.replace(/[gy]/g, "")}g`);
    if (typeof p === "string" && p !== "") return new RegExp(escapeRegExp(p), "g");
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: patterns[${i}] must be a RegExp or a non-empty string, got ${describe(p)}`,
    );
  });
}

function checkKeyNames(keys: unknown): void {
  if (keys === undefined) return;
  if (!Array.isArray(keys)) {
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`keys\` must be an array of key names, got ${describe(keys)}`,
    );
  }
  keys.forEach((k: unknown, i) => {
    // A name that normalises to nothing ("---") would silently protect no key.
    if (typeof k !== "string" || normalizeName(k) === "") {
      throw packOptionError(
        "TOOLWARE_INVALID_OPTION",
        `${PREFIX}: \`keys\` must be an array of key names with a letter or digit; keys[${i}] is ${describe(k)}`,
      );
    }
  });
}

function checkPlaceholders(placeholders: unknown): void {
  if (placeholders === undefined) return;
  if (!isOptionsObject(placeholders)) {
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`placeholders\` must be an object { secret?, email?, card?, custom? }, got ${describe(placeholders)}`,
    );
  }
  for (const [k, v] of Object.entries(placeholders)) {
    if (!Object.hasOwn(DEFAULT_PLACEHOLDERS, k)) {
      throw packOptionError(
        "TOOLWARE_UNKNOWN_OPTION",
        `${PREFIX}: unknown placeholder ${keyLabel(k)} (expected secret, email, card or custom)`,
      );
    }
    if (typeof v !== "string") {
      throw packOptionError(
        "TOOLWARE_INVALID_OPTION",
        `${PREFIX}: placeholders.${k} must be a string, got ${describe(v)}`,
      );
    }
  }
}

/** Checks the shared options; `extra` lists keys the caller handles. */
export function checkRedactOptions(options: unknown, extra: readonly string[] = []): RedactTextOptions {
  if (options === undefined) return {};
  if (!isOptionsObject(options)) {
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: options must be an object { secrets?, emails?, cards?, keys?, patterns?, … }, got ${describe(options)}`,
    );
  }
  const known = [...OPTION_KEYS, ...extra];
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const alias = Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
    const hint = alias === undefined ? `expected one of: ${known.join(", ")}` : `did you mean \`${alias}\`?`;
    throw packOptionError("TOOLWARE_UNKNOWN_OPTION", `${PREFIX}: unknown option ${keyLabel(key)} (${hint})`);
  }
  const o = options as RedactTextOptions;
  for (const k of ["secrets", "emails", "cards"] as const) {
    if (o[k] !== undefined && typeof o[k] !== "boolean") {
      throw packOptionError("TOOLWARE_INVALID_OPTION", `${PREFIX}: \`${k}\` must be a boolean, got ${describe(o[k])}`);
    }
  }
  checkKeyNames(o.keys);
  if (o.replacers !== undefined && (!Array.isArray(o.replacers) || o.replacers.some((r) => typeof r !== "function"))) {
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`replacers\` must be an array of functions, got ${describe(o.replacers)}`,
    );
  }
  checkPlaceholders(o.placeholders);
  if (o.maxDepth !== undefined && !(Number.isInteger(o.maxDepth) && o.maxDepth > 0)) {
    throw packOptionError(
      "TOOLWARE_INVALID_OPTION",
      `${PREFIX}: \`maxDepth\` must be a positive integer, got ${describe(o.maxDepth)}`,
    );
  }
  compilePatterns(o.patterns);
  return o;
}
