/*
 * E-mail addresses and URL passwords, found from their one rare character (`@`, `://`) with
 * indexOf and read outwards by hand. They match exactly what EMAIL and URL_CREDENTIALS in
 * detectors.ts match (the tests compare them on random input), but a regex tries every letter
 * of a page as a possible start, and these look only where an `@` or a `://` is.
 *
 * Linear: the characters a scan reads (local part, domain, scheme, user, password) never
 * contain the character it starts from, so no character is read from two starts.
 */

enum C {
  Dot = 46,
  Dash = 45,
  Plus = 43,
  Percent = 37,
  Underscore = 95,
  Colon = 58,
  Slash = 47,
  Question = 63,
  Hash = 35,
  At = 64,
  Quote = 34,
}

function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isAlnum(c: number): boolean {
  return isAlpha(c) || (c >= 48 && c <= 57);
}
/** `[\w.%+-]`: the characters of a local part. */
function isLocal(c: number): boolean {
  return isAlnum(c) || c === C.Underscore || c === C.Dot || c === C.Percent || c === C.Plus || c === C.Dash;
}
/** `[A-Za-z0-9.-]`: the characters of a domain. */
function isDomain(c: number): boolean {
  return isAlnum(c) || c === C.Dot || c === C.Dash;
}
/** `\s` as JavaScript regexes read it. */
function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * The end of the longest `(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}` at `from` not followed by `[\w-]`, or -1.
 * `end` is where the run of domain characters stops.
 */
function domainEnd(text: string, from: number, end: number): number {
  let best = -1;
  let labelStart = from;
  let labels = 0;
  let letters = true;
  for (let i = from; i <= end; i++) {
    const c = i === end ? -1 : text.charCodeAt(i);
    if (c !== C.Dot && c !== -1) {
      if (!isAlpha(c)) letters = false;
      continue;
    }
    const len = i - labelStart;
    if (len === 0) break; // an empty label: nothing longer can match
    labels++;
    // A candidate end: the next character is "." (inside the run) or what follows the run.
    if (labels >= 2 && letters && len >= 2) {
      const next = i === end ? text.charCodeAt(end) : C.Dot;
      if (next !== C.Underscore) best = i;
    }
    if (c === -1) break;
    labelStart = i + 1;
    letters = true;
  }
  return best;
}

/** Replaces e-mail addresses with `placeholder`. */
export function redactEmails(text: string, placeholder: string): string {
  let at = text.indexOf("@");
  if (at === -1) return text;
  let out = "";
  let last = 0;
  while (at !== -1) {
    let start = at;
    while (start > last && isLocal(text.charCodeAt(start - 1))) start--;
    let runEnd = at + 1;
    while (runEnd < text.length && isDomain(text.charCodeAt(runEnd))) runEnd++;
    const end = start < at ? domainEnd(text, at + 1, runEnd) : -1;
    // A local part cut short by the previous match would not be a match of the regex either.
    const whole = start > last || start === 0 || !isLocal(text.charCodeAt(start - 1));
    if (end !== -1 && whole) {
      out += text.slice(last, start) + placeholder;
      last = end;
    }
    at = text.indexOf("@", Math.max(at + 1, last));
  }
  return last === 0 ? text : out + text.slice(last);
}

/** `[A-Za-z0-9+.-]`: the characters of a URL scheme. */
function isScheme(c: number): boolean {
  return isAlnum(c) || c === C.Plus || c === C.Dot || c === C.Dash;
}

/**
 * Reads `[^\s/?#@]` (and `:` unless `colon`; and `"` in JSON mode) from `from`, at most `max` + 1
 * characters; returns where the run stops.
 */
function runOf(text: string, from: number, max: number, colon: boolean): number {
  let i = from;
  const limit = Math.min(text.length, from + max + 1);
  while (i < limit) {
    const c = text.charCodeAt(i);
    if (
      c === C.Slash ||
      c === C.Question ||
      c === C.Hash ||
      c === C.At ||
      (!colon && c === C.Colon) ||
      // A quote or an angle bracket ends the URL it sits in ("https://url:8000";@x is no password).
      c === C.Quote ||
      c === 39 ||
      c === 96 ||
      c === 60 ||
      c === 62 ||
      isSpace(c)
    )
      break;
    i++;
  }
  return i;
}

/**
 * Hides the password of `scheme://user:password@host`, keeping the rest. `json`: the text is a
 * JSON document, whose string literals the user and password never run out of.
 */
export function redactUrlCredentials(text: string, placeholder: string, _json = false): string {
  let sep = text.indexOf("://");
  if (sep === -1) return text;
  let out = "";
  let last = 0;
  while (sep !== -1) {
    let start = sep;
    while (start > 0 && sep - start <= 32 && isScheme(text.charCodeAt(start - 1))) start--;
    const schemeOk =
      start < sep && sep - start <= 32 && isAlpha(text.charCodeAt(start)) && !isScheme(text.charCodeAt(start - 1));
    let next = sep + 3;
    if (schemeOk) {
      const userEnd = runOf(text, sep + 3, 256, false);
      if (userEnd - (sep + 3) <= 256 && text.charCodeAt(userEnd) === C.Colon) {
        const passEnd = runOf(text, userEnd + 1, 256, true);
        const len = passEnd - userEnd - 1;
        if (len >= 1 && len <= 256 && text.charCodeAt(passEnd) === C.At) {
          out += text.slice(last, userEnd + 1) + placeholder;
          last = passEnd;
          next = passEnd;
        }
      }
    }
    sep = text.indexOf("://", next);
  }
  return last === 0 ? text : out + text.slice(last);
}
