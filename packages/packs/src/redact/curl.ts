/*
 * `curl -u user:password` and `--user`, `-U` / `--proxy-user`: the password goes, the user
 * stays; `-u "sk_test_…:"` (an API key as the user, no password) hides the user. Only options of a
 * curl command count (`sort -u`, `docker run -u 1000:1000` are not credentials), and what only
 * points at a credential (`"$USER:$PASS"`, `"$(cat login):$(cat pw)"`, `<user:password>`) stays.
 *
 * Linear: each command (a line, with its `\` continuations) is read once, from its `curl`.
 */
import { isReference } from "./values.js";

// `-uuser:pass`: the short options also take their value with no blank.
const OPTION = /(?<![\w-])(?:(?:-u|--user|-U|--proxy-user)(?:[ \t]+|=)|-[uU](?=[^\s=-]))/g;
// A credential longer than this is not one (and bounds the work on a crafted line).
const MAX_WORD = 1024;

/** The end of the command that starts at `at`: the line break not escaped by a `\`. */
function commandEnd(text: string, at: number): number {
  let nl = text.indexOf("\n", at);
  while (nl !== -1) {
    const b = text.charCodeAt(nl - 1) === 13 ? nl - 2 : nl - 1;
    if (text.charCodeAt(b) !== 92) return nl;
    nl = text.indexOf("\n", nl + 1);
  }
  return text.length;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** The positions of the characters of the shell word at `s` (quotes and escapes removed). */
function wordAt(text: string, s: number, end: number, json: boolean): number[] {
  const at: number[] = [];
  let i = s;
  while (i < end && at.length < MAX_WORD) {
    const c = text.charCodeAt(i);
    if (isBlank(c) || (json && c === 34)) break;
    if (c === 34 || c === 39) {
      let k = i + 1;
      for (; k < end && text.charCodeAt(k) !== c; k++) {
        if (c === 34 && text.charCodeAt(k) === 92 && !json) k++;
        at.push(k);
      }
      i = k + 1;
    } else if (c === 92 && !json) {
      at.push(i + 1);
      i += 2;
    } else {
      at.push(i);
      i++;
    }
  }
  return at.filter((p) => p < end);
}

/** Where the user ends: the first `:` outside `${…}`, `$(…)` and `{{…}}`, or -1. */
function colonIn(word: string): number {
  let depth = 0;
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if (c === "{" || c === "(") depth++;
    else if ((c === "}" || c === ")") && depth > 0) depth--;
    else if (c === ":" && depth === 0) return i;
  }
  return -1;
}

/** The span of the text to hide for the credential word at `s`, or undefined. */
function credential(text: string, s: number, end: number, json: boolean): [number, number] | undefined {
  const at = wordAt(text, s, end, json);
  const word = at.map((p) => text[p]).join("");
  const k = colonIn(word);
  if (k === -1 || isReference(word)) return undefined;
  const user = word.slice(0, k);
  const pass = word.slice(k + 1);
  if (pass !== "") {
    if (isReference(pass)) return undefined;
    let e = (at[at.length - 1] as number) + 1;
    // A word longer than MAX_WORD (a long JWT as the password) goes to its blank: hiding part of it would show the rest.
    // Read once, after a hit, so the bound on crafted lines holds.
    if (at.length >= MAX_WORD)
      while (e < end && !isBlank(text.charCodeAt(e)) && !(json && text.charCodeAt(e) === 34)) e++;
    return [at[k + 1] as number, e];
  }
  if (user === "" || isReference(user)) return undefined;
  return [at[0] as number, (at[k - 1] as number) + 1];
}

/** Hides the passwords of curl's `-u` / `--user` options. `json`: the text is a JSON document. */
export function redactCurlUser(text: string, placeholder: string, json = false): string {
  let at = text.indexOf("curl");
  if (at === -1) return text;
  let out = "";
  let last = 0;
  while (at !== -1) {
    const end = commandEnd(text, at);
    const word = !/[\w-]/.test(text[at - 1] ?? " ") && isBlank(text.charCodeAt(at + 4));
    if (word) {
      const command = text.slice(at, end);
      OPTION.lastIndex = 4;
      for (let m = OPTION.exec(command); m !== null; m = OPTION.exec(command)) {
        const span = credential(text, at + OPTION.lastIndex, end, json);
        if (span === undefined || span[0] < last) continue;
        out += text.slice(last, span[0]) + placeholder;
        last = span[1];
        OPTION.lastIndex = Math.max(OPTION.lastIndex, span[1] - at);
      }
    }
    at = text.indexOf("curl", Math.max(end, at + 4));
  }
  return last === 0 ? text : out + text.slice(last);
}
