import type { ApprovalBinding } from "@toolware/core";
import { isPlainObject } from "../internal/in-place.js";

/** What an answer means; `parseAnswer` returns one. */
export interface ApprovalAnswer {
  /** Only exactly `true` approves. */
  approve: boolean;
  /** New arguments to run the tool with (merged or replacing, per `editMode`); only used when approving. */
  input?: Record<string, unknown>;
  /** Keep this decision for the rest of the run (needs `remember` other than `"none"`). */
  remember?: boolean;
  /** Why, when denying: added to the reason the agent reads. */
  reason?: string;
  /**
   * The call this answer was given for (an answer kept by a framework's flow or an inbox): it must
   * name this call's tool and id and the digest of its arguments, or the call is denied.
   */
  binding?: ApprovalBinding;
}

/** How the built-in parser reads answers. */
export interface AnswerWords {
  readonly approve: ReadonlySet<string>;
  readonly always: ReadonlySet<string>;
  readonly never: ReadonlySet<string>;
  /** Lower-cased, or undefined when edits are off. */
  readonly editPrefix: string | undefined;
}

const MAX_DEPTH = 64;

/**
 * Checks an edited input: a plain JSON-like object, no `__proto__` keys, bounded depth.
 * Returns why it is unacceptable, or undefined.
 *
 * @example
 * ```ts
 * editProblem({ path: "b.txt" }); // undefined
 * editProblem([1, 2]); // "the edited arguments must be an object, got an array"
 * ```
 */
export function editProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) {
    return `the edited arguments must be an object, got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`;
  }
  const walk = (v: unknown, depth: number): string | undefined => {
    if (depth > MAX_DEPTH) return "the edited arguments are nested too deeply";
    if (Array.isArray(v)) {
      for (const item of v) {
        const p = walk(item, depth + 1);
        if (p !== undefined) return p;
      }
    } else if (v !== null && typeof v === "object") {
      if (!isPlainObject(v)) return "the edited arguments may only contain plain data";
      for (const key of Object.keys(v)) {
        if (key === "__proto__") return 'the edited arguments may not contain a "__proto__" key';
        const p = walk(v[key], depth + 1);
        if (p !== undefined) return p;
      }
    } else if (typeof v === "function" || typeof v === "symbol") {
      return `the edited arguments may not contain a ${typeof v}`;
    }
    return undefined;
  };
  return walk(value, 0);
}

/**
 * The built-in reading of an answer: an approve word approves; `always` /
 * `never` approve or deny and remember; `edit {json}` approves with new
 * arguments; anything else denies. Matching is case-insensitive on the trimmed
 * answer and exact, so "yes please" is not a yes.
 */
export function parseBuiltIn(answer: string, words: AnswerWords): ApprovalAnswer {
  const text = answer.trim();
  const lower = text.toLowerCase();
  if (words.approve.has(lower)) return { approve: true };
  if (words.always.has(lower)) return { approve: true, remember: true };
  if (words.never.has(lower)) return { approve: false, remember: true };
  const prefix = words.editPrefix;
  if (prefix !== undefined && lower.startsWith(prefix)) {
    const rest = text.slice(prefix.length);
    // "edit {…}", "edit{…}", "edit […]": an edit attempt. "editor" or a bare "edit" is just not a yes.
    if (rest.trim() !== "" && /^[\s{[]/.test(rest)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(rest);
      } catch (e) {
        return { approve: false, reason: `the edited arguments are not a valid JSON object (${(e as Error).message})` };
      }
      const problem = editProblem(parsed);
      if (problem !== undefined) return { approve: false, reason: problem };
      return { approve: true, input: parsed as Record<string, unknown> };
    }
  }
  return { approve: false };
}

/** Checks what a custom `parseAnswer` returned. Returns why it is unusable, or undefined. */
export function answerProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== "object") return "parseAnswer must return { approve, input?, remember? }";
  const a = value as ApprovalAnswer;
  if (typeof a.approve !== "boolean") return "parseAnswer returned no boolean `approve`";
  if (a.input !== undefined) return editProblem(a.input);
  return undefined;
}

// Characters that can make a prompt display something other than what the tool receives:
// controls, bidi overrides, zero-width characters, line and paragraph separators.
const SPOOFING = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * Escapes invisible and direction-changing characters so the human sees what the tool will get.
 *
 * @example
 * ```ts
 * printable("ceo@example.com\u202e"); // "ceo@example.com\\u202e"
 * ```
 */
export function printable(text: string): string {
  return text.replace(SPOOFING, (ch) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, "0")}`);
}

/**
 * JSON for display: cycles and bigints tolerated, spoofing characters escaped,
 * long inputs cut with a visible note.
 *
 * @example
 * ```ts
 * displayJson({ to: "a@example.com" }, 4000); // '{"to":"a@example.com"}'
 * ```
 */
export function displayJson(value: unknown, maxChars: number): string {
  const seen = new WeakSet<object>();
  let json: string | undefined;
  try {
    json = JSON.stringify(value, (_k, v: unknown) => {
      if (typeof v === "bigint") return `${v}n`;
      if (typeof v === "object" && v !== null) {
        if (seen.has(v)) return "[Circular]";
        seen.add(v);
      }
      return v;
    });
  } catch (e) {
    json = `[input not displayable: ${(e as Error).message}]`;
  }
  const text = printable(json ?? String(value));
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}… [truncated: ${text.length - maxChars} more characters not shown]`;
}
