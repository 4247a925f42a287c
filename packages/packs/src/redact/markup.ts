/*
 * Sensitive values that no operator introduces: XML elements (`<password>…</password>`) and
 * call arguments (`System.setProperty("API_TOKEN", "…")`, `headers.set('Authorization', '…')`,
 * setters `setPassword("…")`, `.withToken('…')`).
 * The pairs search finds elements (its finder also stops at `>` after a sensitive word, see
 * pairs.ts); call arguments are found from their `(`. Both are read by hand, and names are read on
 * the folded view (see fold.ts).
 */
import type { SecretKeyTest } from "./pairs.js";
import { isReference, quotedEnd } from "./values.js";

function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45;
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * `<name>value</name>`, from the `>` at `gt`: the value's span (blanks around it kept) when the
 * name is sensitive.
 */
export function elementAt(
  view: string,
  gt: number,
  isSecret: SecretKeyTest,
  json: boolean,
): [number, number] | undefined {
  let s = gt;
  while (s > 0 && (isNameChar(view.charCodeAt(s - 1)) || view.charCodeAt(s - 1) === 58)) s--;
  if (view.charCodeAt(s - 1) !== 60 || s === gt) return undefined;
  const name = view.slice(s, gt);
  if (!isSecret(name.slice(name.lastIndexOf(":") + 1))) return undefined;
  const lt = view.indexOf("<", gt + 1);
  if (lt === -1) return undefined;
  if (view.startsWith(CDATA, lt)) return cdataAt(view, gt, lt, name, json);
  if (!view.startsWith(`</${name}>`, lt)) return undefined;
  let a = gt + 1;
  let b = lt;
  while (a < b && isSpace(view.charCodeAt(a))) a++;
  while (b > a && isSpace(view.charCodeAt(b - 1))) b--;
  const value = view.slice(a, b);
  // In a JSON document the element sits in a string literal, which a value may not leave.
  if (a === b || isReference(value) || (json && value.includes('"'))) return undefined;
  return [a, b];
}

const CDATA = "<![CDATA[";

// `<password><![CDATA[…]]></password>`: the element's text is all character data, so the secret is inside it.
function cdataAt(view: string, gt: number, lt: number, name: string, json: boolean): [number, number] | undefined {
  for (let i = gt + 1; i < lt; i++) if (!isSpace(view.charCodeAt(i))) return undefined;
  const a = lt + CDATA.length;
  const b = view.indexOf("]]>", a);
  if (b === -1 || b === a) return undefined;
  let close = b + 3;
  while (isSpace(view.charCodeAt(close))) close++;
  if (!view.startsWith(`</${name}>`, close)) return undefined;
  const value = view.slice(a, b);
  if (isReference(value) || (json && value.includes('"'))) return undefined;
  return [a, b];
}

/** `f("name", "value")`, from the `,` at `comma`: the value's span (inside its quotes) when the name is sensitive. */
function callAt(view: string, comma: number, isSecret: SecretKeyTest, json: boolean): [number, number] | undefined {
  let e = comma;
  while (e > 0 && (view.charCodeAt(e - 1) === 32 || view.charCodeAt(e - 1) === 9)) e--;
  const q = view.charCodeAt(e - 1);
  if (q !== 34 && q !== 39) return undefined;
  // The key's opening quote, at most 64 characters back.
  let open = e - 2;
  while (open >= 0 && e - 1 - open <= 64 && view.charCodeAt(open) !== q) open--;
  if (open < 0 || view.charCodeAt(open) !== q) return undefined;
  let p = open;
  while (p > 0 && (view.charCodeAt(p - 1) === 32 || view.charCodeAt(p - 1) === 9)) p--;
  if (view.charCodeAt(p - 1) !== 40 || !isSecret(view.slice(open + 1, e - 1))) return undefined;
  let v = comma + 1;
  while (view.charCodeAt(v) === 32 || view.charCodeAt(v) === 9) v++;
  const vq = view.charCodeAt(v);
  if (!(vq === 39 || (vq === 34 && !json) || (vq === 34 && q === 34))) return undefined;
  const { end, closed } = quotedEnd(view, v, json);
  const inner = closed ? end - 1 : end;
  if (inner === v + 1 || isReference(view.slice(v + 1, inner))) return undefined;
  return [v + 1, inner];
}

// `setPassword(`, `.withToken(`: a setter whose name holds the key.
const SETTER = /^(?:set|with)_?([A-Za-z0-9_]+)$/;

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
}

/** `setPassword("value")`, from the `(` at `p`: the span inside the quotes of the one argument. */
function setterAt(view: string, p: number, isSecret: SecretKeyTest, json: boolean): [number, number] | undefined {
  let s = p;
  while (s > 0 && p - s <= 64 && isWordChar(view.charCodeAt(s - 1))) s--;
  if (p - s > 64 || s === p) return undefined;
  const m = SETTER.exec(view.slice(s, p));
  if (m === null || !isSecret(m[1] as string)) return undefined;
  let v = p + 1;
  while (view.charCodeAt(v) === 32 || view.charCodeAt(v) === 9) v++;
  const q = view.charCodeAt(v);
  if (q !== 39 && (q !== 34 || json)) return undefined;
  const { end, closed } = quotedEnd(view, v, json);
  if (!closed) return undefined;
  let e = end;
  while (view.charCodeAt(e) === 32 || view.charCodeAt(e) === 9) e++;
  if (view.charCodeAt(e) !== 41 || end - 1 === v + 1 || isReference(view.slice(v + 1, end - 1))) return undefined;
  return [v + 1, end - 1];
}

// `("name",` after an opening parenthesis: the quoted first argument, at most 64 characters.
const FIRST_ARGUMENT = /[ \t]*(["'])[^"'\r\n]{1,64}\1[ \t]*,/y;

/**
 * Hides the values of sensitive call arguments (`setProperty("API_TOKEN", "…")`). Found from each
 * `(` with indexOf, which most texts hold a few of; `view`: the folded text (see fold.ts).
 */
export function redactCalls(
  text: string,
  view: string,
  isSecret: SecretKeyTest,
  placeholder: string,
  json = false,
): string {
  let out = "";
  let last = 0;
  for (let p = view.indexOf("("); p !== -1; p = view.indexOf("(", Math.max(p + 1, last))) {
    FIRST_ARGUMENT.lastIndex = p + 1;
    const span = FIRST_ARGUMENT.test(view)
      ? callAt(view, FIRST_ARGUMENT.lastIndex - 1, isSecret, json)
      : setterAt(view, p, isSecret, json);
    if (span === undefined) continue;
    out += text.slice(last, span[0]) + placeholder;
    last = span[1];
  }
  return last === 0 ? text : out + text.slice(last);
}
