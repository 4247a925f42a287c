import { definePack, formatToolResult, type Pack, type ToolCallHookContext } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { checkBoolean, checkPriority, ownOptions } from "../internal/options.js";
import { createRedactor as compile, type Redactor, type RedactTextOptions } from "./engine.js";
import { checkRedactOptions, PREFIX } from "./options.js";

export { isCardNumber, luhnValid } from "./cards.js";
export { DEFAULT_SECRET_KEYS, type RedactKind } from "./detectors.js";
export type { Redactor, RedactTextOptions } from "./engine.js";

declare module "@toolware/core" {
  interface ToolCallState {
    /** A redacted copy of the tool input, for loggers (set by `redact({ inputsInLogs: true })`, computed on read). */
    redactedInput?: unknown;
  }
}

/** Options of {@link redact}. */
export interface RedactOptions extends RedactTextOptions {
  /**
   * For results the tool returned as objects or arrays (and that no inner hook rewrote), redact the
   * value and serialise it again, so the JSON stays valid and secret keys are hidden whatever their
   * value type. Default true.
   */
  structured?: boolean;
  /** Offer `ctx.state.redactedInput`, a redacted copy of the input for logging hooks. Default false. */
  inputsInLogs?: boolean;
  /**
   * Chain position of the result hook. Default -50: inside guards and loggers, so they see the redacted result, and
   * outside `cache` (-100), whose hits skip every hook inside it and would otherwise reach the agent unredacted.
   */
  priority?: number;
}

/** The pack {@link redact} returns, with its compiled redaction functions. */
export type RedactPack = Pack<Redactor>;

const cache = new WeakMap<object, Redactor>();
let defaults: Redactor | undefined;

function redactorFor(options: RedactTextOptions | undefined): Redactor {
  if (options === undefined) {
    defaults ??= compile();
    return defaults;
  }
  let r = cache.get(options);
  if (r === undefined) {
    r = compile(options);
    cache.set(options, r);
  }
  return r;
}

/**
 * Compiles redaction options once, for repeated use outside a hook chain (logs, traces).
 *
 * @example
 * ```ts
 * const { text, value } = createRedactor({ keys: ["x_internal_id"] });
 * logger.info(value(payload));
 * ```
 */
export function createRedactor(options?: RedactTextOptions): Redactor {
  return compile(options);
}

/**
 * Hides secrets in a string: API keys and tokens (`sk-…`, `ghp_…`, `AKIA…`,
 * `xoxb-…`, Stripe, Google), JWTs, bearer tokens, private-key blocks, URL
 * passwords, values of sensitive `key: value` pairs, e-mail addresses and
 * Luhn-valid card numbers, then your patterns and replacers. Linear time.
 *
 * @example
 * ```ts
 * redactText("api_key=sk-proj-abc123def456ghi789jkl, mail bob@example.com");
 * // "api_key=[REDACTED], mail [EMAIL-REDACTED]"
 * ```
 */
export function redactText(text: string, options?: RedactTextOptions): string {
  if (typeof text !== "string") {
    throw packTypeError("TOOLWARE_INVALID_ARGUMENT", `${PREFIX}: redactText() takes a string, got ${shown(text)}`);
  }
  return redactorFor(options).text(text);
}

/**
 * A redacted deep copy of any value: strings are redacted, values under
 * secret-looking keys (`password`, `apiKey`, `x-api-key`, …) replaced, card
 * numbers stored as numbers caught too. Cycles and shared references are kept;
 * the input is never changed.
 *
 * @example
 * ```ts
 * redactValue({ user: "bob@example.com", password: 1234, nested: [{ token: "t" }] });
 * // { user: "[EMAIL-REDACTED]", password: "[REDACTED]", nested: [{ token: "[REDACTED]" }] }
 * ```
 */
export function redactValue(value: unknown, options?: RedactTextOptions): unknown {
  return redactorFor(options).value(value);
}

function isContainer(value: unknown): boolean {
  return typeof value === "object" && value !== null;
}

function stringify(value: unknown): string | undefined {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

/**
 * Sanitises tool results before anyone else sees them: an after-hook that
 * replaces `ctx.toolResult` with a redacted copy (blocked and failed calls
 * included); `rawToolResult` stays as the tool returned it. By default it runs
 * inside guards and loggers (they get the redacted text) and outside the cache
 * (so answers from the cache are redacted too).
 * A guard: if redaction throws, the result is withheld.
 *
 * @example
 * ```ts
 * hooks.use(redact({ keys: ["x_session"], patterns: [/ACME-\d{6}/] }));
 * const out = await hooks.invoke(fetchUser, { id: 1 });
 * // out.result === '{"email":"[EMAIL-REDACTED]","apiKey":"[REDACTED]"}'
 * ```
 */
export function redact(options: RedactOptions = {}): RedactPack {
  options = ownOptions(options, PREFIX);
  const o = checkRedactOptions(options, ["structured", "inputsInLogs", "priority"]) as RedactOptions;
  checkBoolean(o.structured, "structured", PREFIX);
  checkBoolean(o.inputsInLogs, "inputsInLogs", PREFIX);
  checkPriority(o.priority, PREFIX);
  const { structured = true, inputsInLogs = false, priority = -50, ...textOptions } = o;
  const redactor = compile(textOptions);

  function redactResult(ctx: ToolCallHookContext): string | undefined {
    const text = ctx.toolResult;
    if (text === undefined || text === "") return undefined;
    const raw = ctx.rawToolResult;
    if (structured && ctx.status === "ok" && isContainer(raw) && ctx.tool.formatResult === undefined) {
      // Only when the text is still the tool's own JSON: an inner hook's rewrite must not be undone.
      if (formatToolResult(ctx.tool, raw) === text) {
        const out = stringify(redactor.value(raw));
        if (out !== undefined) return out;
      }
    }
    const out = redactor.text(text);
    return out === text ? undefined : out;
  }

  function offerRedactedInput(ctx: ToolCallHookContext): void {
    // A getter: computed only if a logger reads it, and from the input as it is at that moment.
    Object.defineProperty(ctx.state, "redactedInput", {
      get: () => redactor.value(ctx.toolInput),
      enumerable: true,
      configurable: true,
    });
  }

  return definePack({
    name: "redact",
    hooks: [
      { kind: "after", fn: redactResult, options: { name: "redactResult", onError: "block", priority } },
      ...(inputsInLogs
        ? [
            {
              kind: "before" as const,
              fn: offerRedactedInput,
              options: { name: "redactedInput", priority: 1000, onError: "continue" as const },
            },
          ]
        : []),
    ],
    text: redactor.text,
    value: redactor.value,
  });
}
