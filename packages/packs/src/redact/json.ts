/*
 * JSON documents given as text (a tool that returns an HTTP body, a file, a JSON string). Run as
 * plain text, an escaped string (`"{\"api_key\": \"…\"}"`, `"password: \"…\""`) would be read
 * with its backslashes, and a card number outside quotes would become an unquoted placeholder.
 * So a text that parses as JSON is redacted with its structure in mind:
 *
 * - string literals holding escapes are cut out (each replaced by a marker literal), decoded,
 *   redacted as text of their own (recursively, so JSON inside JSON is redacted as JSON) and
 *   encoded again; those the redaction leaves alone keep their original spelling;
 * - the rest, whose strings now hold no escapes, goes through the detectors in JSON mode: no
 *   value runs past the string literal it sits in, a card that is a number becomes a string, and
 *   the whole value of a sensitive key (object and array included) becomes the placeholder;
 * - the markers are put back.
 * Formatting, key order and numbers stay as they were. Decoded strings are redacted in one batch
 * (joined by a separator no detector reads across), so a document with many escaped strings still
 * costs a few passes.
 */
import type { SecretKeyTest } from "./pairs.js";
import { jsonValueEnd } from "./values.js";

/** What the JSON layer needs from the engine. */
export interface JsonContext {
  /** The built-in detectors over one text; `json`: the text is a document whose strings hold no escapes. */
  readonly run: (text: string, json: boolean) => string;
  /** Sensitive key names, or undefined when `secrets` is off. */
  readonly isSecret: SecretKeyTest | undefined;
  /** The secret placeholder, escaped for a JSON string. */
  readonly secretInJson: string;
}

// From a position outside any string: the longest stretch of structure and escape-free strings.
const PLAIN = /(?:[^"]+|"[^"\\]*")*/y;
const ESCAPED = /"(?:[^"\\]|\\.)*"/y;
const BARE = /[^\s,}\]]+/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL cannot occur raw in a JSON document, so it marks
const MARKER = /"\u0000(\d+)\u0000"/g;
const SEPARATOR = "\n\u0000\n";

function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length && isJsonSpace(text.charCodeAt(i))) i++;
  return i;
}
function lastNonSpace(text: string): number {
  let i = text.length - 1;
  while (i >= 0 && isJsonSpace(text.charCodeAt(i))) i--;
  return i;
}
function isJsonSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** A cheap first look: `{…}`, `[…]` or `"…"`, surrounding whitespace allowed. */
export function looksLikeJson(text: string): boolean {
  const a = text[firstNonSpace(text)];
  const b = text[lastNonSpace(text)];
  return (a === "{" && b === "}") || (a === "[" && b === "]") || (a === '"' && b === '"' && text.length > 1);
}

const NUMBER = /^[ \t\n\r]*-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?[ \t\n\r]*$/;

function isBareNumber(text: string): boolean {
  return NUMBER.test(text);
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Where the JSON value at `v` ends (`v` at its first character; strings may hold escapes). */
function valueEnd(text: string, v: number): number {
  const c = text[v];
  if (c === '"') {
    ESCAPED.lastIndex = v;
    return ESCAPED.test(text) ? ESCAPED.lastIndex : text.length;
  }
  if (c === "{" || c === "[") return jsonValueEnd(text, v, true);
  BARE.lastIndex = v;
  return BARE.test(text) ? BARE.lastIndex : v;
}

interface Masked {
  readonly text: string;
  /** The cut-out literals, as written and decoded. */
  readonly literals: string[];
  readonly decoded: string[];
}

/** Replaces every string literal holding an escape with a marker; hides the values of escaped sensitive keys. */
function mask(text: string, ctx: JsonContext): Masked {
  const literals: string[] = [];
  const decoded: string[] = [];
  let out = "";
  let pos = 0;
  while (pos < text.length) {
    PLAIN.lastIndex = pos;
    PLAIN.test(text);
    out += text.slice(pos, PLAIN.lastIndex);
    pos = PLAIN.lastIndex;
    if (pos >= text.length) break;
    ESCAPED.lastIndex = pos;
    if (!ESCAPED.test(text)) return { text: out + text.slice(pos), literals, decoded }; // not reached: the text parsed
    const end = ESCAPED.lastIndex;
    const literal = text.slice(pos, end);
    const value = JSON.parse(literal) as string;
    out += `"\u0000${literals.length}\u0000"`;
    literals.push(literal);
    decoded.push(value);
    pos = end;
    // `"pass\u0077ord": …` is a sensitive key the detectors cannot read: hide its value here.
    let colon = end;
    while (isJsonSpace(text.charCodeAt(colon))) colon++;
    if (text[colon] === ":" && ctx.isSecret?.(value) === true) {
      let v = colon + 1;
      while (isJsonSpace(text.charCodeAt(v))) v++;
      out += `${text.slice(end, v)}"${ctx.secretInJson}"`;
      pos = Math.max(v, valueEnd(text, v));
    }
  }
  return { text: out, literals, decoded };
}

/** Redacts decoded strings: documents one by one, the rest in one batch. */
function redactDecoded(decoded: readonly string[], ctx: JsonContext): string[] {
  const out = decoded.slice();
  const batch: number[] = [];
  for (let i = 0; i < decoded.length; i++) {
    const s = decoded[i] as string;
    // A private-key block may span the separator's line breaks, and a NUL could fake a separator.
    if (looksLikeJson(s) || s.includes("\u0000") || s.includes("-----BEGIN ")) out[i] = redactJsonText(s, ctx);
    else batch.push(i);
  }
  if (batch.length === 0) return out;
  const parts = ctx.run(batch.map((i) => decoded[i] as string).join(SEPARATOR), false).split(SEPARATOR);
  for (let k = 0; k < batch.length; k++) {
    const i = batch[k] as number;
    // A replacement that swallowed a separator cannot be split back: redact those one by one.
    out[i] = parts.length === batch.length ? (parts[k] as string) : ctx.run(decoded[i] as string, false);
  }
  return out;
}

/** Redacts a text with the built-in detectors, as JSON when it is a JSON document. */
export function redactJsonText(text: string, ctx: JsonContext): string {
  // A document that is one number (a tool that returns a count, an id): a card there becomes a
  // string, so the output still parses; a number longer than a card is left alone.
  if (isBareNumber(text)) return ctx.run(text, true);
  if (!looksLikeJson(text) || !parses(text)) return ctx.run(text, false);
  if (!text.includes("\\")) return ctx.run(text, true);
  const masked = mask(text, ctx);
  const redacted = redactDecoded(masked.decoded, ctx);
  const encoded = redacted.map((s, i) =>
    s === masked.decoded[i] ? (masked.literals[i] as string) : JSON.stringify(s),
  );
  return ctx.run(masked.text, true).replace(MARKER, (_m, i: string) => encoded[Number(i)] as string);
}
