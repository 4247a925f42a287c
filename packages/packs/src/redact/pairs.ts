/*
 * Sensitive `key: value` pairs. A regex over every `key:` of a page is slow (every word is a
 * possible key), so the search looks for the sensitive words themselves followed by an operator,
 * reads the key backwards from the operator, and reads the value forwards by hand.
 *
 * Operators: `:` `=` `:=` `::=` `:::=` `=>` `?=` `.=` `+=` `||=` `??=` `==` `!=`; typed
 * declarations put a type between key and operator (`var apiKey string =`; `apiKey: string =` is
 * read from the colon).
 * Keys may be quoted, also with escaped quotes (`\"api_key\": \"…\"`, JSON inside a JSON string),
 * or sit in brackets (`ENV["TOKEN"] =`). In JSON mode (the text is a JSON document, see json.ts)
 * a value never runs past the string literal it sits in, and a structural key's value
 * (`"password": {…}`) goes whole.
 *
 * Everything is found on a `view` of the text: the text itself, or a copy of the same length
 * whose compatibility characters are folded (`ｐａｓｓｗｏｒｄ`, see fold.ts). Output slices come from
 * the text.
 */
import { elementAt } from "./markup.js";
import { readValue } from "./pair-value.js";

/**
 * Tests a key name; the finder, when present, finds every operator and XML element (`>`) a
 * sensitive key can precede.
 */
export type SecretKeyTest = ((key: string) => boolean) & { readonly finder?: RegExp };

// Any operator, tag end or argument separator, for a key test that brings no finder of its own.
const EVERY_DELIMITER = /[:=>]/g;
// The operator, read from its first character.
const OPERATOR = /=>|:{1,3}=|===?|!==?|\|\|=|\?\?=|[?+.!]=|[:=]/y;
// Types a declaration puts between the key and `=` without a colon (`var apiKey string = …`).
const TYPE_NAMES = "string|String|str|bytes|byte|char|SecureString|SecretString|Secret";
const TYPE_WORD = new RegExp(`^(?:\\[\\])?(?:${TYPE_NAMES})$`);

/**
 * Builds a finder from the key terms: an operator after one of their last words and what may
 * follow a word in a key (`_`, `.` or `-`; or, before a closing quote, anything that normalises
 * away, as in the JSON keys `"password "` and `"password:"`), a closing quote (maybe escaped), a
 * closing bracket, a type, blanks and the operator's first characters; or the `>` of an XML tag.
 * A normalised key ends with a term, so its spelling ends with the term's last word in some case:
 * every sensitive key is found. The operator comes first and the rest is a look-behind, so the
 * engine only stops at `:`, `=` and `>`; the look-behind reads back over one word and the blanks
 * around it at most.
 */
export function keyFinder(terms: readonly string[]): RegExp {
  const words = [...new Set(terms.map((t) => t.slice(t.lastIndexOf("_") + 1)).filter((w) => w !== ""))];
  words.sort((a, b) => b.length - a.length);
  // A JSON key is its whole string, so before a closing double quote also `'`, backslashes and
  // line breaks may sit (`"password'"`); no `\\*` there, it would read a run of backslashes two ways.
  const tail = `(?:[._-]*|[^A-Za-z0-9"'\\\\*?\\r\\n]*\\\\*'|[^A-Za-z0-9"*?]*")\\]?`;
  // `var apiKey string =`; `apiKey: string =` is read from its colon (see pair-value.ts).
  const type = `(?:[ \\t]+(?:\\[\\])?(?:${TYPE_NAMES}))?`;
  const pair = `${tail}${type}[ \\t]*[?+!|.]{0,2}[:=]`;
  // `<password>`: an XML element (call arguments are found from their `(`, see markup.ts).
  return new RegExp(`[:=>](?<=(?:${words.join("|")})(?:${pair}|[._-]*>))`, "gi");
}

function isKeyChar(c: number): boolean {
  // [\w.-]
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45;
}
function isKeyStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}
function backslashesBefore(text: string, at: number, floor: number): number {
  let b = at;
  while (b > floor && text.charCodeAt(b - 1) === 92) b--;
  return at - b;
}

export interface Key {
  readonly start: number;
  readonly name: string;
  /** The quote around the key with its backslashes (`"`, `\"`, `'`), or "". */
  readonly quote: string;
}

/**
 * Reads the key that ends at `e` (blanks before `e` skipped), as
 * `(?<![\w.-])[-.]*(\\*["']?)([A-Za-z_][\w.-]*)\1\]?[ \t]*` would. In JSON mode a double-quoted key
 * is a key of the document: its whole string is the name.
 */
function keyEndingAt(text: string, e: number, json: boolean): Key | undefined {
  while (e > 0 && isBlank(text.charCodeAt(e - 1))) e--;
  if (json && text.charCodeAt(e - 1) === 34) {
    const open = text.lastIndexOf('"', e - 2);
    return open === -1 ? undefined : { start: open, name: text.slice(open + 1, e - 1), quote: '"' };
  }
  // `ENV["TOKEN"] =`, `$_ENV['DB_PASSWORD'] =`: a quoted key in brackets.
  const bracket = text.charCodeAt(e - 1) === 93 && (text.charCodeAt(e - 2) === 34 || text.charCodeAt(e - 2) === 39);
  if (bracket) e--;
  let keyEnd = e;
  let quote = "";
  const q = text.charCodeAt(e - 1);
  if (q === 34 || q === 39) {
    const nb = backslashesBefore(text, e - 1, 0);
    keyEnd = e - 1 - nb;
    quote = text.slice(keyEnd, e);
  } else if (bracket) return undefined;
  let start = keyEnd;
  while (start > 0 && isKeyChar(text.charCodeAt(start - 1))) start--;
  const runStart = start;
  // `--password=…` (a command-line flag), `.password`: the dashes and dots are not the key.
  while (start < keyEnd && (text.charCodeAt(start) === 45 || text.charCodeAt(start) === 46)) start++;
  if (start === keyEnd || !isKeyStart(text.charCodeAt(start))) return undefined;
  if (quote === "") return { start: runStart, name: text.slice(start, keyEnd), quote };
  // The opening quote must be the same, with exactly as many backslashes, and not follow a key character.
  if (runStart !== start) return undefined;
  const open = start - quote.length;
  if (open < 0 || text.slice(open, start) !== quote || text.charCodeAt(open - 1) === 92) return undefined;
  if (open > 0 && isKeyChar(text.charCodeAt(open - 1))) return undefined;
  if (bracket && text.charCodeAt(open - 1) !== 91) return undefined;
  return { start: open, name: text.slice(start, keyEnd), quote };
}

/** Where the operator whose first `:` or `=` is at `d` starts (`?=`, `.=`, `||=`, `!=` start before it). */
function operatorStart(text: string, d: number): number {
  let s = d;
  while (s > d - 2 && s > 0 && "?+!|.".includes(text[s - 1] as string)) s--;
  return s;
}

/**
 * The sensitive key before the operator at `op`: the key itself, or the key before a type
 * (`var apiKey string =`, `String password =` needs no such step).
 */
function sensitiveKey(view: string, op: number, isSecret: SecretKeyTest, json: boolean): Key | undefined {
  const key = keyEndingAt(view, op, json);
  if (key === undefined || isSecret(key.name)) return key;
  if (key.quote !== "" || key.name.length > 40) return undefined;
  let gap = key.start;
  while (gap > 0 && isBlank(view.charCodeAt(gap - 1))) gap--;
  if (gap === key.start || !TYPE_WORD.test(key.name)) return undefined;
  const typed = keyEndingAt(view, gap, false);
  return typed !== undefined && typed.quote === "" && isSecret(typed.name) ? typed : undefined;
}

/**
 * Hides the values of sensitive `key: value` / `key=value` pairs and XML elements, keeping quotes
 * and auth scheme words. `json`: the text is a JSON document whose strings hold no escapes (see json.ts). `view`:
 * the text with its compatibility characters folded (same length), where keys are looked for.
 */
export function redactPairs(
  text: string,
  isSecret: SecretKeyTest,
  placeholder: string,
  json = false,
  view = text,
): string {
  if (!view.includes(":") && !view.includes("=") && !view.includes(">")) return text;
  const finder = isSecret.finder ?? EVERY_DELIMITER;
  let out = "";
  let last = 0;
  finder.lastIndex = 0;
  for (let m = finder.exec(view); m !== null; m = finder.exec(view)) {
    const d = m.index + m[0].length - 1;
    const c = view.charCodeAt(d);
    if (c === 62) {
      const span = elementAt(view, d, isSecret, json);
      if (span === undefined || span[0] < last) continue;
      out += text.slice(last, span[0]) + placeholder;
      last = span[1];
      finder.lastIndex = Math.max(last, d + 1);
      continue;
    }
    const op = operatorStart(view, d);
    const key = sensitiveKey(view, op, isSecret, json);
    if (key === undefined || key.start < last || !isSecret(key.name)) continue;
    OPERATOR.lastIndex = op;
    if (!OPERATOR.test(view)) continue;
    const operator = view.slice(op, OPERATOR.lastIndex);
    let v = OPERATOR.lastIndex;
    while (isBlank(view.charCodeAt(v))) v++;
    // `password := := x`: an operator standing alone is no value; the value follows the last one.
    for (;;) {
      OPERATOR.lastIndex = v;
      if (!OPERATOR.test(view) || !isBlank(view.charCodeAt(OPERATOR.lastIndex))) break;
      let w = OPERATOR.lastIndex;
      while (isBlank(view.charCodeAt(w))) w++;
      if (w >= view.length) break;
      v = w;
    }
    const value = readValue(view, v, key, operator, placeholder, json);
    if (value === undefined) continue;
    if (typeof value === "number") {
      // A value kept as it is (`${TOKEN}`): nothing inside it is searched again.
      finder.lastIndex = Math.max(finder.lastIndex, value);
      continue;
    }
    out += text.slice(last, value.start) + value.replacement;
    last = value.end;
    finder.lastIndex = Math.max(last, d + 1);
  }
  return last === 0 ? text : out + text.slice(last);
}
