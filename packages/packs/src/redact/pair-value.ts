/*
 * The value after a sensitive key and its operator: what to replace, and with what. Quotes stay,
 * auth scheme words stay, and what only points at a secret (`${TOKEN}`, `$(cat …)`, `new Creds()`)
 * is left as it is.
 */
import type { Key } from "./pairs.js";
import { bareEnd, escapedValueEnd, isReference, jsonValueEnd, quotedEnd, schemeLength } from "./values.js";

export interface Replacement {
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
}

const JSON_BARE = /[^\s,}\]]+/y;
// A type annotation: `apiKey: string = …` names the type after the colon; the value comes after `=`.
// A blank before the `=`, or a type name: `password: abc=def` is a password with an `=` in it.
const TYPE_THEN_ASSIGNMENT = /(?:[A-Za-z_][\w.[\]<>|]*[ \t]+|(?:string|String|str|number|any)[ \t]*)=(?![=>])[ \t]*/y;
const EXPRESSION_START = /^(?:new$|\$\()/;

function isJsonSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** True for a key that carries an `Authorization` header: any first word there is a scheme. */
function isAuthKey(name: string): boolean {
  return /authori[sz]ation$/i.test(name.replace(/[^A-Za-z]/g, ""));
}

function jsonDocumentValue(text: string, v: number, placeholder: string): Replacement | undefined {
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

function quotedValue(text: string, v: number, json: boolean, placeholder: string): Replacement | undefined {
  const { end, closed } = quotedEnd(text, v, json);
  const q = text[v] as string;
  const content = text.slice(v + 1, closed ? end - 1 : end);
  if (content.trim() === "" || isReference(content)) return undefined;
  return { start: v, end, replacement: closed ? `${q}${placeholder}${q}` : `${q}${placeholder}` };
}

/**
 * What replaces the value at `v` (after `operator`) of the sensitive `key`; undefined to keep it;
 * or where a value that is kept ends (a reference, an expression), so that the search does not
 * read it again. `json`: the text is a JSON document whose strings hold no escapes.
 */
export function readValue(
  text: string,
  v: number,
  key: Key,
  operator: string,
  placeholder: string,
  json: boolean,
): Replacement | number | undefined {
  // A key of the document itself: the value is a whole JSON value.
  if (json && key.quote === '"' && operator === ":") return jsonDocumentValue(text, v, placeholder);
  const c = text.charCodeAt(v);
  if (c === 92) {
    let b = 0;
    while (text.charCodeAt(v + b) === 92) b++;
    const q = text.charCodeAt(v + b);
    if (q === 34 || q === 39) {
      const open = text.slice(v, v + b + 1);
      const { end, closed } = escapedValueEnd(text, v, b);
      if (isReference(text.slice(v + b + 1, closed ? end - b - 1 : end))) return undefined;
      return { start: v, end, replacement: open + placeholder + (closed ? open : "") };
    }
  }
  // In a JSON document a double quote here closes the string the pair sits in.
  if (c === 39 || c === 96 || (c === 34 && !json)) return quotedValue(text, v, json, placeholder);
  // C# verbatim strings: `password = @"…"`.
  const q2 = text.charCodeAt(v + 1);
  if (c === 64 && (q2 === 39 || (q2 === 34 && !json))) {
    const r = quotedValue(text, v + 1, json, placeholder);
    return r === undefined ? undefined : { ...r, start: v, replacement: `@${r.replacement}` };
  }
  // `password => $x` is code (an arrow function, a Perl variable); a hash entry quotes its value.
  if (operator === "=>" || c === 34) return undefined;
  const end = bareEnd(text, v, json);
  if (end === v) return undefined;
  const raw = text.slice(v, end);
  if (isReference(raw) || EXPRESSION_START.test(raw) || isReference(text.slice(v, v + 24))) return end;
  if (operator === ":") {
    // `apiKey: string = "…"`, `password: str="…"`: a type annotation; the value follows the `=`.
    TYPE_THEN_ASSIGNMENT.lastIndex = v;
    if (TYPE_THEN_ASSIGNMENT.test(text))
      return readValue(text, TYPE_THEN_ASSIGNMENT.lastIndex, key, "=", placeholder, json);
  }
  const scheme = schemeLength(text, v, end, isAuthKey(key.name));
  if (scheme > 0) {
    const t = v + scheme;
    const tokenEnd = bareEnd(text, t, json);
    const token = text.slice(t, tokenEnd);
    // "Authorization: Bearer [REDACTED]": the token was already hidden.
    if (tokenEnd === t || isReference(token) || EXPRESSION_START.test(token) || text.startsWith(placeholder, t)) {
      return tokenEnd;
    }
    return { start: t, end: tokenEnd, replacement: placeholder };
  }
  // `"key": 12345` is JSON (also escaped inside a JSON string): a quoted placeholder keeps it parseable.
  if (key.quote.endsWith('"') && operator === ":") {
    return { start: v, end, replacement: `${key.quote}${placeholder}${key.quote}` };
  }
  return { start: v, end, replacement: placeholder };
}
