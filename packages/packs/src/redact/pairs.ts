/*
 * Sensitive `key: value` pairs. A regex over every `key:` of a page is slow (every word is a
 * possible key), so the search looks for the sensitive words themselves followed by a delimiter,
 * reads the key backwards from the delimiter, and reads the value with a sticky regex or by hand.
 *
 * Keys may be quoted, also with escaped quotes (`\"api_key\": \"…\"`, JSON inside a JSON string):
 * the value then ends at the quote with the same number of backslashes, so the secret goes and the
 * quoting stays. In JSON mode (the text is a JSON document, see json.ts) a value never runs past
 * the string literal it sits in, and a structural key's value (`"password": {…}`) goes whole.
 */

/** Tests a key name; the finder, when present, finds every delimiter a sensitive key can precede. */
export type SecretKeyTest = ((key: string) => boolean) & { readonly finder?: RegExp };

// Any delimiter, for a key test that brings no finder of its own.
const EVERY_DELIMITER = /[:=]/g;
// A quoted value (escapes allowed, closing quote optional so it cannot fail), or a bare one,
// optionally after an auth scheme word that is kept.
const VALUE =
  /"(?:[^"\\\r\n]|\\.)*"?|'(?:[^'\\\r\n]|\\.)*'?|(?:(?:Bearer|Basic|Digest|Token|Bot)[ \t]+)?[^\s"'`,;&<>{}()[\]]+/iy;
// Inside a string literal of a JSON document: nothing may cross a double quote.
const VALUE_IN_JSON_STRING = /'[^'"\r\n]*'?|(?:(?:Bearer|Basic|Digest|Token|Bot)[ \t]+)?[^\s"'`,;&<>{}()[\]]+/iy;
const JSON_BARE = /[^\s,}\]]+/y;
const SCHEME = /^(?:Bearer|Basic|Digest|Token|Bot)[ \t]+/i;
const SCHEME_WORD = /^(?:Bearer|Basic|Digest|Token|Bot)$/i;
const BRACKETS = /[{}[\]"]/g;
const JSON_STRING = /"(?:[^"\\]|\\.)*"/y;

/**
 * Builds a finder from the key terms: a delimiter after one of their last words and what may
 * follow a word in a key (`_`, `.` or `-`; or, before a closing quote, anything that normalises
 * away, as in the JSON keys `"password "` and `"password:"`), a closing quote (maybe escaped) and
 * blanks. A normalised key ends with a term, so its spelling ends with the term's last word in
 * some case: every sensitive key is found. The delimiter comes first and the rest is a
 * look-behind, so the engine only stops at `:` and `=`; the look-behind's parts cannot match the
 * same characters, and a look-behind that reads back over earlier delimiters stops at the quote
 * before it, so no character is read twice.
 */
export function keyFinder(terms: readonly string[]): RegExp {
  const words = [...new Set(terms.map((t) => t.slice(t.lastIndexOf("_") + 1)).filter((w) => w !== ""))];
  words.sort((a, b) => b.length - a.length);
  // A JSON key is its whole string, so before a closing double quote also `'`, backslashes and
  // line breaks may sit (`"password'"`); no `\\*` there, it would read a run of backslashes two ways.
  const tail = `(?:[._-]*|[^A-Za-z0-9"'\\\\*?\\r\\n]*\\\\*'|[^A-Za-z0-9"*?]*")`;
  return new RegExp(`[:=](?<=(?:${words.join("|")})${tail}[ \\t]*[:=])`, "gi");
}

function isKeyChar(c: number): boolean {
  // [\w.-]
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45;
}
function isKeyStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function backslashesBefore(text: string, at: number, floor: number): number {
  let b = at;
  while (b > floor && text.charCodeAt(b - 1) === 92) b--;
  return at - b;
}

interface Key {
  readonly start: number;
  readonly name: string;
  /** The quote around the key with its backslashes (`"`, `\"`, `'`), or "". */
  readonly quote: string;
}

/**
 * Reads the key that ends before the delimiter at `d`, as `(?<![\w.-])(\\*["']?)([A-Za-z_][\w.-]*)\1[ \t]*`
 * would. In JSON mode a double-quoted key is a key of the document: its whole string is the name.
 */
function keyBefore(text: string, d: number, json: boolean): Key | undefined {
  let e = d;
  while (e > 0 && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9)) e--;
  if (json && text.charCodeAt(e - 1) === 34) {
    const open = text.lastIndexOf('"', e - 2);
    return open === -1 ? undefined : { start: open, name: text.slice(open + 1, e - 1), quote: '"' };
  }
  let keyEnd = e;
  let quote = "";
  const q = text.charCodeAt(e - 1);
  if (q === 34 || q === 39) {
    const nb = backslashesBefore(text, e - 1, 0);
    keyEnd = e - 1 - nb;
    quote = text.slice(keyEnd, e);
  }
  let start = keyEnd;
  while (start > 0 && isKeyChar(text.charCodeAt(start - 1))) start--;
  if (start === keyEnd || !isKeyStart(text.charCodeAt(start))) return undefined;
  if (quote === "") return { start, name: text.slice(start, keyEnd), quote };
  // The opening quote must be the same, with exactly as many backslashes, and not follow a key character.
  const open = start - quote.length;
  if (open < 0 || text.slice(open, start) !== quote || text.charCodeAt(open - 1) === 92) return undefined;
  if (open > 0 && isKeyChar(text.charCodeAt(open - 1))) return undefined;
  return { start: open, name: text.slice(start, keyEnd), quote };
}

/**
 * Where a quoted value that opens with `b` backslashes and a quote at `v` ends: at the quote with
 * exactly `b` backslashes before it (closed), or before a quote with fewer (the enclosing string
 * ends) or a line break (unterminated).
 */
function escapedValueEnd(text: string, v: number, b: number): { end: number; closed: boolean } {
  const q = text.charCodeAt(v + b);
  for (let i = v + b + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return { end: i, closed: false };
    if (c !== q) continue;
    const k = backslashesBefore(text, i, v + b + 1);
    if (k === b) return { end: i + 1, closed: true };
    if (k < b) return { end: i - k, closed: false };
  }
  return { end: text.length, closed: false };
}

/** The end of the JSON object or array that opens at `v` (string-aware; `escapes` when strings may hold `\"`). */
export function jsonValueEnd(text: string, v: number, escapes: boolean): number {
  let depth = 0;
  BRACKETS.lastIndex = v;
  for (let m = BRACKETS.exec(text); m !== null; m = BRACKETS.exec(text)) {
    const ch = m[0];
    if (ch === '"') {
      let close: number;
      if (escapes) {
        JSON_STRING.lastIndex = m.index;
        close = JSON_STRING.test(text) ? JSON_STRING.lastIndex : -1;
      } else {
        const q = text.indexOf('"', m.index + 1);
        close = q === -1 ? -1 : q + 1;
      }
      if (close === -1) return text.length;
      BRACKETS.lastIndex = close;
      continue;
    }
    depth += ch === "{" || ch === "[" ? 1 : -1;
    if (depth === 0) return m.index + 1;
  }
  return text.length;
}

function isJsonSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** The value after a sensitive key: where it ends and what replaces it, or undefined to keep it. */
function valueAt(
  text: string,
  v: number,
  key: Key,
  delimiter: string,
  placeholder: string,
  json: boolean,
): { start: number; end: number; replacement: string } | undefined {
  if (json && key.quote === '"' && delimiter === ":") {
    // A key of the document itself: the value is a whole JSON value.
    while (v < text.length && isJsonSpace(text.charCodeAt(v))) v++;
    const c = text[v];
    let end: number;
    if (c === '"') {
      const q = text.indexOf('"', v + 1);
      end = q === -1 ? text.length : q + 1;
    } else if (c === "{" || c === "[") {
      end = jsonValueEnd(text, v, false);
    } else {
      JSON_BARE.lastIndex = v;
      if (!JSON_BARE.test(text)) return undefined;
      end = JSON_BARE.lastIndex;
    }
    return { start: v, end, replacement: `"${placeholder}"` };
  }
  if (text.charCodeAt(v) === 92) {
    let b = 0;
    while (text.charCodeAt(v + b) === 92) b++;
    const q = text.charCodeAt(v + b);
    if (q === 34 || q === 39) {
      const open = text.slice(v, v + b + 1);
      const { end, closed } = escapedValueEnd(text, v, b);
      return { start: v, end, replacement: open + placeholder + (closed ? open : "") };
    }
  }
  const re = json ? VALUE_IN_JSON_STRING : VALUE;
  re.lastIndex = v;
  const m = re.exec(text);
  if (m === null) return undefined;
  const raw = m[0];
  const end = v + raw.length;
  // "Authorization: Bearer [REDACTED]": the token was already hidden, keep the scheme word.
  if (SCHEME_WORD.test(raw)) {
    let k = end;
    while (text[k] === " " || text[k] === "\t") k++;
    if (k > end && text.startsWith(placeholder, k)) return undefined;
  }
  if (raw.startsWith('"') || raw.startsWith("'")) {
    const q = raw[0] as string;
    const replacement = raw.length > 1 && raw.endsWith(q) ? `${q}${placeholder}${q}` : `${q}${placeholder}`;
    return { start: v, end, replacement };
  }
  const scheme = SCHEME.exec(raw)?.[0];
  // `"key": 12345` is JSON (also escaped inside a JSON string): a quoted placeholder keeps it parseable.
  if (scheme === undefined && key.quote.endsWith('"') && delimiter === ":") {
    return { start: v, end, replacement: `${key.quote}${placeholder}${key.quote}` };
  }
  return { start: v, end, replacement: (scheme ?? "") + placeholder };
}

/**
 * Hides the values of sensitive `key: value` / `key=value` pairs, keeping quotes and auth scheme words.
 * `json`: the text is a JSON document whose strings hold no escapes (see json.ts).
 */
export function redactPairs(text: string, isSecret: SecretKeyTest, placeholder: string, json = false): string {
  if (!text.includes(":") && !text.includes("=")) return text;
  const finder = isSecret.finder ?? EVERY_DELIMITER;
  let out = "";
  let last = 0;
  finder.lastIndex = 0;
  for (let m = finder.exec(text); m !== null; m = finder.exec(text)) {
    const d = m.index + m[0].length - 1;
    const key = keyBefore(text, d, json);
    if (key === undefined || key.start < last || !isSecret(key.name)) continue;
    let v = d + 1;
    while (text.charCodeAt(v) === 32 || text.charCodeAt(v) === 9) v++;
    const value = valueAt(text, v, key, text[d] as string, placeholder, json);
    if (value === undefined) continue;
    out += text.slice(last, value.start) + value.replacement;
    last = value.end;
    finder.lastIndex = Math.max(last, d + 1);
  }
  return last === 0 ? text : out + text.slice(last);
}
