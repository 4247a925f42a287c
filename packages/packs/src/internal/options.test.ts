// Option mistakes in every pack this folder's checker serves: refused at setup, with a code and a hint.
import { ToolwareTypeError, toolwareCode } from "@toolware/core";
import { analytics } from "@toolware/packs/analytics";
import { approval } from "@toolware/packs/approval";
import { cache, memoryCacheStore } from "@toolware/packs/cache";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { debugLog } from "@toolware/packs/debug-log";
import { guardrails } from "@toolware/packs/guardrails";
import { loopGuard } from "@toolware/packs/loop-guard";
import { memoryRateLimitStore, rateLimit } from "@toolware/packs/rate-limit";
import { createRedactor, redact } from "@toolware/packs/redact";
import { retry } from "@toolware/packs/retry";
import { timeout } from "@toolware/packs/timeout";
import { checkPath, queryRules, safePath, validate } from "@toolware/packs/validate";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";

interface Subject {
  readonly make: (options: never) => unknown;
  readonly base: Record<string, unknown>;
  readonly keys: readonly string[];
  readonly prefix: string;
}

const s = (make: (options: never) => unknown, prefix: string, base: Record<string, unknown>, keys: string[]) => ({
  make,
  prefix,
  base,
  keys,
});

const SUBJECTS: Record<string, Subject> = {
  analytics: s(analytics, "toolware/analytics", {}, ["now", "tools", "agents", "priority", "sampleSize", "onCall"]),
  approval: s(approval, "toolware/approval", {}, [
    "approveWords",
    "remember",
    "edits",
    "editPrefix",
    "editMode",
    "parseAnswer",
    "timeoutMs",
    "prompt",
    "defaultMessage",
    "message",
    "onDecision",
    "maxInputChars",
    "priority",
  ]),
  cache: s(cache, "toolware/cache", { tools: "*" }, ["ttl", "maxEntries", "now", "keyInput", "dedupe", "priority"]),
  circuitBreaker: s(circuitBreaker, "toolware/circuit-breaker", {}, [
    "failureThreshold",
    "cooldownMs",
    "halfOpenMax",
    "key",
    "isFailure",
    "now",
    "message",
    "onStateChange",
  ]),
  debugLog: s(debugLog, "toolware/debug-log", {}, [
    "logger",
    "maxPreview",
    "redact",
    "structured",
    "logStart",
    "now",
    "priority",
  ]),
  loopGuard: s(loopGuard, "toolware/loop-guard", { maxInWindow: 3 }, [
    "maxRepeats",
    "windowMs",
    "sameInput",
    "scope",
    "action",
    "onWarn",
    "message",
    "historySize",
    "now",
    "priority",
  ]),
  rateLimit: s(rateLimit, "toolware/rate-limit", { max: 2, per: "1s" }, [
    "max",
    "per",
    "key",
    "algorithm",
    "store",
    "keyPrefix",
    "now",
    "message",
    "onLimited",
    "priority",
  ]),
  validate: s(validate, "toolware/validate", { schemas: { web_search: z.object({}) } }, [
    "schemas",
    "requireSchema",
    "writeBack",
    "maxIssues",
    "message",
    "priority",
  ]),
  queryRules: s(queryRules, "toolware/validate: queryRules", { tools: "web_search" }, [
    "field",
    "minLength",
    "maxLength",
    "trim",
    "collapseWhitespace",
    "lowercase",
    "required",
    "priority",
  ]),
  safePath: s(safePath, "toolware/validate: safePath", { tools: "read_file", root: "/srv" }, [
    "root",
    "fields",
    "followSymlinks",
    "allowRoot",
    "required",
    "rewrite",
    "priority",
  ]),
  // Not `onWarn`: its typos "nWarn" and "oWarn" are as close to `warn`, another option.
  guardrails: s(guardrails, "toolware/guardrails", { deny: ["x"] }, [
    "allow",
    "warn",
    "byRole",
    "rules",
    "message",
    "unmatchableNames",
    "priority",
  ]),
  redact: s(redact, "toolware/redact", {}, [
    "secrets",
    "emails",
    "cards",
    "keys",
    "patterns",
    "replacers",
    "placeholders",
    "maxDepth",
    "structured",
    "inputsInLogs",
    "priority",
  ]),
  createRedactor: s(createRedactor, "toolware/redact", {}, ["secrets", "keys", "placeholders", "maxDepth"]),
  memoryCacheStore: s(memoryCacheStore, "toolware/cache: memoryCacheStore()", {}, ["maxEntries"]),
  memoryRateLimitStore: s(memoryRateLimitStore, "toolware/rate-limit: memoryRateLimitStore()", {}, ["sweepEvery"]),
  checkPath: s((o: never) => checkPath("a.txt", o), "toolware/validate: checkPath()", { root: "/srv" }, ["allowRoot"]),
  // No keys to misspell here: retry and timeout list their options instead of guessing (see below).
  retry: s(retry, "toolware/retry", {}, []),
  timeout: s(timeout, "toolware/timeout", { ms: 10 }, []),
};

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("pack options: unknown keys", () => {
  it.each(Object.entries(SUBJECTS))("%s refuses an unknown key with TOOLWARE_UNKNOWN_OPTION", (_, subject) => {
    const e = thrown(() => subject.make({ ...subject.base, colour: "blue" } as never));
    expect(e).toBeInstanceOf(ToolwareTypeError);
    expect(toolwareCode(e)).toBe("TOOLWARE_UNKNOWN_OPTION");
    expect((e as Error).message).toMatch(new RegExp(`^${subject.prefix.replace(/[()]/g, "\\$&")}: unknown option`));
    expect((e as Error).message).toContain("(expected one of: ");
  });

  it("suggests the option a typo meant: another case, a dropped letter, two swapped letters", () => {
    const misses: string[] = [];
    for (const [name, subject] of Object.entries(SUBJECTS)) {
      for (const key of subject.keys.filter((k) => k.length >= 5)) {
        const typos = new Set([key.toLowerCase(), key.toUpperCase()]);
        for (let i = 0; i < key.length; i++) typos.add(key.slice(0, i) + key.slice(i + 1));
        for (let i = 0; i + 1 < key.length; i++) typos.add(key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2));
        for (const typo of typos) {
          if (typo === key) continue;
          const message = (thrown(() => subject.make({ ...subject.base, [typo]: 1 } as never)) as Error)?.message;
          if (!message?.endsWith(`(did you mean \`${key}\`?)`)) misses.push(`${name}: ${typo} → ${message}`);
        }
      }
    }
    expect(misses).toEqual([]);
  });

  it("points names from other libraries at ours", () => {
    expect(() => rateLimit({ max: 1, windowMs: 1000 } as never)).toThrow(
      "unknown option `windowMs` (did you mean `per`?)",
    );
    expect(() => circuitBreaker({ resetTimeout: 5 } as never)).toThrow("(did you mean `cooldownMs`?)");
    expect(() => validate({ schema: {} } as never)).toThrow("(did you mean `schemas`?)");
    expect(() => debugLog({ maxPreview: { output: 5 } } as never)).toThrow(
      "toolware/debug-log: unknown `maxPreview` part `output` (expected one of: input, result, task)",
    );
  });

  it("lists retry's and timeout's options instead of guessing, and names a nested key by its path", () => {
    expect(() => retry({ retrys: 1 } as never)).toThrow(
      "toolware/retry: unknown option `retrys` (expected one of: retries, minDelayMs, maxDelayMs, factor, jitter, retryOn, tools, sleep, random, onRetry)",
    );
    expect(() => timeout({ ms: 10, tool: "x" } as never)).toThrow(
      "toolware/timeout: unknown option `tool` (expected one of: ms, tools, message)",
    );
    expect(() => timeout({ ms: { defualt: 10 } as never })).toThrow(
      "toolware/timeout: unknown option `ms.defualt` (expected one of: default, perTool)",
    );
    expect(() => timeout({ ms: { "per tool": 10 } as never })).toThrow('unknown option `ms."per tool"`');
  });

  it("quotes a key that is not a plain word, and cuts a long one", () => {
    expect(() => analytics({ "a b\n": 1 } as never)).toThrow('unknown option `"a b\\n"`');
    const long = "x".repeat(500);
    const message = (thrown(() => analytics({ [long]: 1 } as never)) as Error).message;
    expect(message.length).toBeLessThan(300);
  });
});

describe("pack options: the options object itself", () => {
  const notOptions = [null, 5, "tools", true, [], [{ tools: "*" }], new Map(), new (class Options {})()];
  it.each(Object.entries(SUBJECTS))("%s refuses a non-object with TOOLWARE_INVALID_OPTION", (_, subject) => {
    for (const value of notOptions) {
      const e = thrown(() => subject.make(value as never));
      expect(toolwareCode(e), `${String(value)}`).toBe("TOOLWARE_INVALID_OPTION");
      expect((e as Error).message.startsWith(subject.prefix)).toBe(true);
    }
  });

  it("accepts a null-prototype options object", () => {
    const options = Object.assign(Object.create(null), { sampleSize: 10 });
    expect(() => analytics(options)).not.toThrow();
  });
});

describe("pack options: wrong types and values", () => {
  // Each of these was, at some point, the kind of value a pack could take silently.
  const refused: [string, Subject, Record<string, unknown>][] = [
    ["debugLog structured", SUBJECTS.debugLog as Subject, { structured: "yes" }],
    ["debugLog logStart", SUBJECTS.debugLog as Subject, { logStart: 0 }],
    ["debugLog maxPreview null part", SUBJECTS.debugLog as Subject, { maxPreview: { input: null } }],
    ["debugLog maxPreview inherited name", SUBJECTS.debugLog as Subject, { maxPreview: { toString: 5 } }],
    ["circuitBreaker unknown key", SUBJECTS.circuitBreaker as Subject, { threshold: 3 }],
    ["circuitBreaker empty message", SUBJECTS.circuitBreaker as Subject, { message: "" }],
    ["loopGuard blank message", SUBJECTS.loopGuard as Subject, { message: "  " }],
    ["rateLimit empty message", SUBJECTS.rateLimit as Subject, { message: "" }],
    ["rateLimit spaced per", SUBJECTS.rateLimit as Subject, { per: "1 m" }],
    ["rateLimit store not an object", SUBJECTS.rateLimit as Subject, { store: () => ({}) }],
    ["cache store not an object", SUBJECTS.cache as Subject, { store: "redis" }],
    ["checkPath allowRoot string", SUBJECTS.checkPath as Subject, { allowRoot: "no" }],
    ["checkPath allowroot typo", SUBJECTS.checkPath as Subject, { allowroot: false }],
  ];
  it.each(refused)("refuses %s", (_, subject, options) => {
    const e = thrown(() => subject.make({ ...subject.base, ...options } as never));
    expect(e).toBeInstanceOf(TypeError);
    expect(toolwareCode(e)).toMatch(/^TOOLWARE_(INVALID|UNKNOWN)_OPTION$/);
  });

  const hostile = [Number.NaN, -1, 0, 0.5, Number.POSITIVE_INFINITY, -0, "", " ", "5", null, [], {}, Symbol("s"), 1n];
  it("refuses hostile values for every numeric option", () => {
    const numeric: [Subject, string][] = [
      [SUBJECTS.analytics as Subject, "sampleSize"],
      [SUBJECTS.approval as Subject, "maxInputChars"],
      [SUBJECTS.cache as Subject, "maxEntries"],
      [SUBJECTS.circuitBreaker as Subject, "failureThreshold"],
      [SUBJECTS.circuitBreaker as Subject, "halfOpenMax"],
      [SUBJECTS.debugLog as Subject, "maxPreview"],
      [SUBJECTS.loopGuard as Subject, "maxInWindow"],
      [SUBJECTS.loopGuard as Subject, "historySize"],
      [SUBJECTS.rateLimit as Subject, "max"],
      [SUBJECTS.validate as Subject, "maxIssues"],
      [SUBJECTS.memoryRateLimitStore as Subject, "sweepEvery"],
    ];
    for (const [subject, key] of numeric) {
      for (const value of hostile) {
        if (key === "maxPreview" && typeof value === "object" && value !== null && !Array.isArray(value)) continue; // {}: every part at its default
        const e = thrown(() => subject.make({ ...subject.base, [key]: value } as never));
        expect(toolwareCode(e), `${subject.prefix} ${key}: ${String(value)}`).toBe("TOOLWARE_INVALID_OPTION");
      }
    }
    for (const value of [...hostile, Number.NEGATIVE_INFINITY]) {
      if (value === 0 || value === 0 || value === 0.5 || value === -1) continue; // priorities may be any number
      for (const subject of Object.values(SUBJECTS).filter((x) => x.keys.includes("priority"))) {
        const e = thrown(() => subject.make({ ...subject.base, priority: value } as never));
        expect(toolwareCode(e), `${subject.prefix} priority: ${String(value)}`).toBe("TOOLWARE_INVALID_OPTION");
      }
    }
  });

  it("either accepts any value of any option or refuses it with a coded TypeError, never another error", () => {
    const entries = Object.values(SUBJECTS).flatMap((subject) => subject.keys.map((key) => [subject, key] as const));
    fc.assert(
      fc.property(fc.constantFrom(...entries), fc.anything(), ([subject, key], value) => {
        const e = thrown(() => subject.make({ ...subject.base, [key]: value } as never));
        if (e === undefined) return;
        expect(e).toBeInstanceOf(ToolwareTypeError);
        expect(toolwareCode(e)).toMatch(/^TOOLWARE_[A-Z_]+$/);
        // The pack's prefix ("toolware/cache"), whichever function of the pack refused it.
        expect((e as Error).message.startsWith(subject.prefix.split(":")[0] as string)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
