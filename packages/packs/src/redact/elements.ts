/*
 * XML forms the pairs search cannot see, because no operator or bare `<name>` precedes the value:
 * a sensitive element with attributes (`<password type="plain">…</password>`), a value wrapped in
 * one child element (`<password><value>…</value></password>`), a sensitive attribute
 * (`<user password="…"/>`) and the .NET config form `<add key="ApiKey" value="…"/>`, where the
 * `key` or `name` attribute names the secret held by `value`. An element with an ordinary name
 * (`<input type="password" name="pw">`) is markup: only names count, never the values of `type`.
 *
 * Linear: each tag is read from its `<` and stops at the next `<`, so no character is read from
 * two tags; an element's text is read up to the next `<` only.
 */
import type { SecretKeyTest } from "./pairs.js";
import { isReference } from "./values.js";

// A tag or attribute name longer than this is not one (and bounds the work on a crafted tag).
const MAX_NAME = 64;

interface Attribute {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}
interface Tag {
  readonly name: string;
  readonly attributes: readonly Attribute[];
  /** Just after the tag's `>`. */
  readonly end: number;
  readonly empty: boolean;
}

function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45;
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}
function localName(name: string): string {
  return name.slice(name.lastIndexOf(":") + 1);
}

/** The end of the (maybe prefixed) name at `i`, or `i` when there is none. */
function nameEnd(view: string, i: number): number {
  const c = view.charCodeAt(i);
  if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) return i;
  let e = i + 1;
  while (e - i <= MAX_NAME && (isNameChar(view.charCodeAt(e)) || view.charCodeAt(e) === 58)) e++;
  return e - i > MAX_NAME ? i : e;
}

/** The start tag at `lt`, its attributes quoted; undefined for anything else. */
function tagAt(view: string, lt: number, json: boolean): Tag | undefined {
  const ne = nameEnd(view, lt + 1);
  if (ne === lt + 1) return undefined;
  const attributes: Attribute[] = [];
  let i = ne;
  for (;;) {
    const before = i;
    while (isSpace(view.charCodeAt(i))) i++;
    const c = view.charCodeAt(i);
    if (c === 62) return { name: view.slice(lt + 1, ne), attributes, end: i + 1, empty: false };
    if (c === 47 && view.charCodeAt(i + 1) === 62) {
      return { name: view.slice(lt + 1, ne), attributes, end: i + 2, empty: true };
    }
    const an = nameEnd(view, i);
    if (an === i || before === i) return undefined;
    let e = an;
    while (isSpace(view.charCodeAt(e))) e++;
    if (view.charCodeAt(e) !== 61) return undefined;
    e++;
    while (isSpace(view.charCodeAt(e))) e++;
    const q = view.charCodeAt(e);
    // In a JSON document a double quote ends the string the markup sits in.
    if (q !== 39 && (q !== 34 || json)) return undefined;
    let k = e + 1;
    while (k < view.length && view.charCodeAt(k) !== q && view.charCodeAt(k) !== 60) k++;
    if (view.charCodeAt(k) !== q) return undefined;
    attributes.push({ name: view.slice(i, an), start: e + 1, end: k });
    i = k + 1;
  }
}

/** The span of the element text from `from` to the `</name>` at the next `<`, blanks trimmed. */
function textUntilClose(view: string, from: number, name: string): [number, number] | undefined {
  const lt = view.indexOf("<", from);
  if (lt === -1 || !view.startsWith(`</${name}>`, lt)) return undefined;
  let a = from;
  let b = lt;
  while (a < b && isSpace(view.charCodeAt(a))) a++;
  while (b > a && isSpace(view.charCodeAt(b - 1))) b--;
  return [a, b];
}

/** The text of the sensitive element whose start tag is `tag`: its own, or that of its one child (`<value>`). */
function elementText(view: string, tag: Tag, json: boolean): [number, number] | undefined {
  let i = tag.end;
  while (isSpace(view.charCodeAt(i))) i++;
  let span: [number, number] | undefined;
  if (view.charCodeAt(i) === 60 && view.charCodeAt(i + 1) !== 47) {
    const child = tagAt(view, i, json);
    if (child === undefined || child.empty || child.attributes.length > 0) return undefined;
    const inner = textUntilClose(view, child.end, child.name);
    if (inner === undefined) return undefined;
    let close = view.indexOf(">", inner[1]) + 1;
    while (isSpace(view.charCodeAt(close))) close++;
    if (!view.startsWith(`</${tag.name}>`, close)) return undefined;
    span = inner;
  } else {
    // Without attributes the element is the pairs search's (see markup.ts).
    if (tag.attributes.length === 0) return undefined;
    span = textUntilClose(view, tag.end, tag.name);
  }
  return span;
}

function keep(view: string, [a, b]: [number, number], json: boolean, placeholder: string): boolean {
  const value = view.slice(a, b);
  return a === b || value === placeholder || isReference(value) || (json && value.includes('"'));
}

/** The spans to hide in the tag at `lt`, in order. */
function spansOf(view: string, tag: Tag, isSecret: SecretKeyTest, json: boolean): [number, number][] {
  const spans: [number, number][] = [];
  const named = tag.attributes.some(
    (a) => /^(?:key|name)$/i.test(localName(a.name)) && isSecret(view.slice(a.start, a.end)),
  );
  for (const a of tag.attributes) {
    const local = localName(a.name);
    if (/^(?:key|name|type|id)$/i.test(local)) continue;
    if (isSecret(local) || (named && /^value$/i.test(local))) spans.push([a.start, a.end]);
  }
  if (!tag.empty && isSecret(localName(tag.name))) {
    const text = elementText(view, tag, json);
    if (text !== undefined) spans.push(text);
  }
  return spans;
}

/**
 * Hides sensitive attribute values and the text of sensitive elements the pairs search leaves
 * (see the header). `view`: the folded text (see fold.ts), where names are read.
 */
export function redactElements(
  text: string,
  view: string,
  isSecret: SecretKeyTest,
  placeholder: string,
  json = false,
): string {
  let out = "";
  let last = 0;
  for (let lt = view.indexOf("<"); lt !== -1; lt = view.indexOf("<", Math.max(lt + 1, last))) {
    const tag = tagAt(view, lt, json);
    if (tag === undefined) continue;
    for (const span of spansOf(view, tag, isSecret, json)) {
      if (span[0] < last || keep(view, span, json, placeholder)) continue;
      out += text.slice(last, span[0]) + placeholder;
      last = span[1];
    }
  }
  return last === 0 ? text : out + text.slice(last);
}
