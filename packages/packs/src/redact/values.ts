/*
 * Where the value of a sensitive pair ends, read by hand: a bare value runs to its real end
 * (`Tr0ub4dor&3x`, `m{{h}o)p}`), not to the first punctuation mark, and what is not a value at all
 * (a shell variable, a command substitution, a template, a constructor call) is left alone.
 *
 * Every reader here moves forward only and stops at a line break, so a value costs the characters
 * it spans.
 */

/**
 * `${…}`, `$(…)`, `{{…}}`, `$1` and environment variables by convention (`$API_KEY`, `%APPDATA%`,
 * upper case): references to a value held elsewhere. `$Secr3t` is a value, and so is the default
 * in `${PASSWORD:-hunter2}`.
 */
const REFERENCE =
  /\$\{[^{}:=\r\n-]*\}|\$\([^()\r\n]*\)|\$\{\{[^{}\r\n]*\}\}|\{\{[^{}\r\n]*\}\}|\$[A-Z_]*[A-Z][A-Z0-9_]*(?![a-z])|%[A-Z_]*[A-Z][A-Z0-9_]*%|\$\d/g;
// A value made only of references, joined (`${USER}:${PASS}`, `"$1:$2"`); each reference read as a NUL.
// Joiners only between: `--_$0_` or `_/$7_-` is a password that holds a `$` and a digit, not a template.
const JOINED_REFERENCES = /^\0(?:[\s:/@._-]*\0)*$/;
// `<token>`, `[PASSWORD]`: a placeholder a reader fills in.
const PLACEHOLDER = /^(?:<[^<>\r\n]*>|\[[^[\]\r\n]*\])$/;
// Expressions that read a secret from somewhere else: `new AWS.Credentials(…)`, `process.env.TOKEN`.
const EXPRESSION =
  /^(?:new[ \t]|process\.env[.[]|os\.environ\b|os\.getenv\(|System\.getenv\(|ENV\[|getenv\(|null$|undefined$|None$|nil$)/;

/**
 * True when a value only points at the secret instead of holding it.
 *
 * @example
 * ```ts
 * isReference("${NPM_TOKEN}"); // true
 * isReference("$(cat ./password.txt)"); // true
 * isReference("hunter2"); // false
 * ```
 */
export function isReference(value: string): boolean {
  if (value === "" || PLACEHOLDER.test(value) || EXPRESSION.test(value)) return true;
  if (!value.includes("$") && !value.includes("{") && !value.includes("%")) return false;
  const trimmed = value.trim();
  // A NUL of the value's own could pose as a reference.
  if (trimmed.includes("\0")) return false;
  return JOINED_REFERENCES.test(trimmed.replace(REFERENCE, "\0"));
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x3000 || c === 0 || Number.isNaN(c);
}
function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45;
}

/** After `,` `;` or `&` at `i`: does another field start (`, next`, `&state=ok`, `;user=bob`)? */
function fieldFollows(text: string, i: number, amp: boolean): boolean {
  const next = text.charCodeAt(i + 1);
  // `, next`, `,"next": …`, `,{…}`: a list or an object goes on.
  if (!amp && (isSpace(next) || next === 34 || next === 39 || next === 123 || next === 91 || next === 40)) return true;
  const first = text.charCodeAt(i + 1);
  if (!((first >= 65 && first <= 90) || (first >= 97 && first <= 122) || first === 95)) return false;
  let k = i + 1;
  while (k < text.length && k - i <= 64 && isWordChar(text.charCodeAt(k))) k++;
  const c = text.charCodeAt(k);
  return k > i + 1 && (c === 61 || (!amp && c === 58));
}

/**
 * The end of a bare (unquoted) value starting at `v`: at a blank, a line break, a quote, a `<`,
 * a closing bracket it did not open, or a `,` `;` `&` that starts another field. `json`: the value
 * sits inside a string literal of a JSON document, which it may not leave.
 */
export function bareEnd(text: string, v: number, json: boolean): number {
  let depth = 0;
  let i = v;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c) || c === 34 || c === 39 || c === 96 || c === 60) break;
    if (json && c === 92) break;
    if (c === 40 || c === 91 || c === 123) depth++;
    else if (c === 41 || c === 93 || c === 125) {
      // A closer it did not open ends the value (`f(password=abc)`), unless the value goes on (`ab)cd`).
      if (depth === 0 && !isAlnum(text.charCodeAt(i + 1))) break;
      if (depth > 0) depth--;
    } else if ((c === 44 || c === 59) && fieldFollows(text, i, false)) break;
    else if (c === 38 && fieldFollows(text, i, true)) break;
  }
  // A sentence's full stop is not part of the value.
  if (i - v > 1 && text.charCodeAt(i - 1) === 46 && (i === text.length || isSpace(text.charCodeAt(i)))) i--;
  return i;
}

/** The end of a quoted value opening at `v` (the quote itself), and whether it closed on the line. */
export function quotedEnd(text: string, v: number, json: boolean): { end: number; closed: boolean } {
  const q = text.charCodeAt(v);
  for (let i = v + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === q) return { end: i + 1, closed: true };
    if (c === 92 && q !== 96 && !json) {
      i++;
      continue;
    }
    if (c === 10 || c === 13) return { end: i, closed: false };
    // In a JSON document's string, a double quote ends the string the value sits in.
    if (json && c === 34) return { end: i, closed: false };
  }
  return { end: text.length, closed: false };
}

/** Auth scheme words that keep their place before a hidden credential under any sensitive key. */
const KNOWN_SCHEME = /^(?:Bearer|Basic|Digest|Token|Bot|OAuth|Negotiate|NTLM|SSWS|Splunk|ApiKey|Api-Key|Api-Token)$/i;
const SCHEME_SHAPE = /^[A-Za-z][\w.+-]{0,39}$/;

/**
 * A bare value that is a scheme word and a credential (`Api-Token 22cb…`): the length of the part
 * to keep (the word and the blanks after it), or 0. Under an authorization key any word counts.
 */
export function schemeLength(text: string, v: number, wordEnd: number, authKey: boolean): number {
  const word = text.slice(v, wordEnd);
  if (!(KNOWN_SCHEME.test(word) || (authKey && SCHEME_SHAPE.test(word)))) return 0;
  let k = wordEnd;
  while (k < text.length && isBlank(text.charCodeAt(k))) k++;
  if (k === wordEnd || k >= text.length || isSpace(text.charCodeAt(k))) return 0;
  return k - v;
}

function backslashesBefore(text: string, at: number, floor: number): number {
  let b = at;
  while (b > floor && text.charCodeAt(b - 1) === 92) b--;
  return at - b;
}

/**
 * Where a quoted value that opens with `b` backslashes and a quote at `v` ends: at the quote with
 * exactly `b` backslashes before it (closed), or before a quote with fewer (the enclosing string
 * ends) or a line break (unterminated).
 */
export function escapedValueEnd(text: string, v: number, b: number): { end: number; closed: boolean } {
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

const BRACKETS = /[{}[\]"]/g;
const JSON_STRING = /"(?:[^"\\]|\\.)*"/y;

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
