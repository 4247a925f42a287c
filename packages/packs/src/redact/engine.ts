import { packTypeError } from "../internal/errors.js";
import { isCardNumber, redactCards } from "./cards.js";
import { redactCurlUser } from "./curl.js";
import {
  BEARER,
  DEFAULT_SECRET_KEYS,
  type Placeholders,
  redactPairs,
  redactPrivateKeys,
  redactTokens,
  secretKeyTest,
} from "./detectors.js";
import { redactElements } from "./elements.js";
import { foldedView } from "./fold.js";
import { type JsonContext, redactJsonText } from "./json.js";
import { redactCalls } from "./markup.js";
import { checkRedactOptions, compilePatterns, DEFAULT_PLACEHOLDERS, PREFIX } from "./options.js";
import { redactEmails, redactUrlCredentials } from "./scanners.js";

/** What the redaction functions take (the pack takes these and a few more). */
export interface RedactTextOptions {
  /** API keys, tokens, JWTs, bearer tokens, private keys, URL passwords, `key=value` secrets. Default true. */
  secrets?: boolean;
  /** E-mail addresses. Default true. */
  emails?: boolean;
  /** Luhn-valid card numbers, plain or grouped with spaces or dashes. Default true. */
  cards?: boolean;
  /** More key names whose values are secrets (added to the defaults, matched normalised). */
  keys?: readonly string[];
  /** Your own patterns: a RegExp, or a string matched literally. Their matches become `placeholders.custom`. */
  patterns?: readonly (RegExp | string)[];
  /** Functions applied last, in order, to every string. */
  replacers?: readonly ((text: string) => string)[];
  /** What replaces each kind of match. */
  placeholders?: Partial<Placeholders>;
  /** `redactValue` replaces anything nested deeper than this. Default 64. */
  maxDepth?: number;
}

/** Compiled redaction functions. */
export interface Redactor {
  /** Redacts a string. */
  text(text: string): string;
  /** Returns a redacted deep copy of a value (strings, numbers, keys, arrays, objects, Maps, Sets). */
  value(value: unknown): unknown;
}

function jsonEscaped(ph: Placeholders): Placeholders {
  const e = (p: string): string => JSON.stringify(p).slice(1, -1);
  return { secret: e(ph.secret), email: e(ph.email), card: e(ph.card), custom: e(ph.custom) };
}

/** Compiles options into text and value redaction functions. */
export function createRedactor(options?: RedactTextOptions): Redactor {
  const o = checkRedactOptions(options);
  const custom = compilePatterns(o.patterns);
  const replacers = [...(o.replacers ?? [])];
  const ph: Placeholders = { ...DEFAULT_PLACEHOLDERS, ...o.placeholders };
  const secrets = o.secrets !== false;
  const emails = o.emails !== false;
  const cards = o.cards !== false;
  const maxDepth = o.maxDepth ?? 64;
  const isSecretKey = secretKeyTest([...DEFAULT_SECRET_KEYS, ...(o.keys ?? [])]);

  // Placeholders as plain text and escaped for a JSON string (see json.ts).
  const forms = { text: ph, json: jsonEscaped(ph) };
  const plainPlaceholders = foldedView(forms.text.secret + forms.json.secret) === forms.text.secret + forms.json.secret;

  const run = (input: string, json: boolean): string => {
    let s = input;
    const p = json ? forms.json : forms.text;
    if (secrets) {
      s = redactPrivateKeys(s, p.secret, json);
      s = redactCurlUser(s, p.secret, json);
      s = redactUrlCredentials(s, p.secret, json);
      // A "$" in a replacement string would be read as "$&" and the like.
      const literal = p.secret.replaceAll("$", "$$$$");
      s = redactTokens(s, literal);
      s = s.replace(BEARER, `$1${literal}`);
      const before = s;
      const view = foldedView(s);
      s = redactPairs(s, isSecretKey, p.secret, json, view);
      if (s.includes("(")) {
        // Without compatibility characters (the common case) the view of the result is the result.
        const callView = view === before && plainPlaceholders ? s : foldedView(s);
        s = redactCalls(s, callView, isSecretKey, p.secret, json);
      }
      if (s.includes("<"))
        s = redactElements(s, plainPlaceholders && view === before ? s : foldedView(s), isSecretKey, p.secret, json);
    }
    if (emails) s = redactEmails(s, p.email);
    if (cards) s = redactCards(s, p.card, json);
    return s;
  };
  const jsonContext: JsonContext = {
    run,
    isSecret: secrets ? isSecretKey : undefined,
    secretInJson: forms.json.secret,
  };

  const text = (input: string): string => {
    let s = secrets || emails || cards ? redactJsonText(input, jsonContext) : input;
    // An empty match would put a placeholder between every two characters.
    for (const re of custom) s = s.replace(re, (m) => (m === "" ? m : ph.custom));
    for (const r of replacers) {
      const next = r(s);
      if (typeof next !== "string") {
        throw packTypeError("TOOLWARE_INVALID_RETURN", `${PREFIX}: a replacer returned ${typeof next}, not a string`);
      }
      s = next;
    }
    return s;
  };

  const value = (input: unknown): unknown => {
    // Clones map to their originals' clones, so shared and cyclic structure is kept, not unrolled.
    const seen = new Map<object, unknown>();
    const walk = (v: unknown, depth: number): unknown => {
      if (typeof v === "string") return text(v);
      if ((typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint") {
        return cards && isCardNumber(v.toString()) ? ph.card : v;
      }
      if (v === null || typeof v !== "object") return v;
      const known = seen.get(v);
      if (known !== undefined || seen.has(v)) return known;
      if (depth >= maxDepth) return `${ph.secret} (nested too deeply)`;
      if (v instanceof Date || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v;
      // A boxed string's own keys are its characters: walked as an object, a secret came out one letter a key.
      if (v instanceof String) return text(v.valueOf());
      if (v instanceof Number || v instanceof BigInt) return walk(v.valueOf(), depth);
      if (Array.isArray(v)) {
        const out: unknown[] = [];
        seen.set(v, out);
        for (const item of v) out.push(walk(item, depth + 1));
        return out;
      }
      if (v instanceof Map) {
        const out = new Map<unknown, unknown>();
        seen.set(v, out);
        for (const [k, item] of v) {
          const secret = typeof k === "string" && secrets && isSecretKey(k) && item !== null && item !== undefined;
          out.set(walk(k, depth + 1), secret ? ph.secret : walk(item, depth + 1));
        }
        return out;
      }
      if (v instanceof Set) {
        const out = new Set<unknown>();
        seen.set(v, out);
        for (const item of v) out.add(walk(item, depth + 1));
        return out;
      }
      if (v instanceof Error) return { name: v.name, message: text(v.message) };
      const source =
        typeof (v as { toJSON?: unknown }).toJSON === "function" ? (v as { toJSON(): unknown }).toJSON() : v;
      if (source !== v) return walk(source, depth + 1);
      const out: Record<string, unknown> = {};
      seen.set(v, out);
      for (const [k, item] of Object.entries(v)) {
        const secret = secrets && isSecretKey(k) && item !== null && item !== undefined;
        // defineProperty: an own "__proto__" key must stay a key, not become the prototype.
        Object.defineProperty(out, text(k), {
          value: secret ? ph.secret : walk(item, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    };
    return walk(input, 0);
  };

  return { text, value };
}
