// A run of digit groups separated by single spaces or dashes, long enough to hold a card. It starts
// at a group of 3+ digits: shorter groups are never part of a card, and three digits are a much
// rarer start than one, so most of a text is skipped by the engine's first-character check. The
// look-ahead (10 characters) and look-behind (4) are bounded; `(?:[ -]\d+)*` cannot split a digit
// run two ways (each repetition must start with a separator) and nothing after it can fail, so the
// engine never backtracks. Windows inside a run are checked in code below.
const DIGIT_RUN = /\d\d\d(?=[\d -]{10})(?<!\d\d\d\d)\d*(?:[ -]\d+)*/g;
const MIN_DIGITS = 13;
const MAX_DIGITS = 19;

/**
 * The Luhn checksum of a string of ASCII digits.
 *
 * @example
 * ```ts
 * luhnValid("4111111111111111"); // true
 * luhnValid("4111111111111112"); // false
 * ```
 */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/**
 * True for 13–19 digits (spaces and dashes ignored) that pass the Luhn check.
 *
 * @example
 * ```ts
 * isCardNumber("4111 1111 1111 1111"); // true
 * isCardNumber("1234 5678 9012 3456"); // false
 * ```
 */
export function isCardNumber(text: string): boolean {
  const digits = text.replace(/[ -]/g, "");
  return digits.length >= MIN_DIGITS && digits.length <= MAX_DIGITS && /^\d+$/.test(digits) && luhnValid(digits);
}

/** Group boundaries of a run as offsets into the text: group k spans [bounds[2k], bounds[2k+1]). */
function groupsOf(run: string, offset: number): Int32Array {
  let n = 1;
  for (let i = 0; i < run.length; i++) if (run.charCodeAt(i) < 48) n++;
  const bounds = new Int32Array(n * 2);
  let k = 0;
  let start = 0;
  for (let i = 0; i <= run.length; i++) {
    if (i === run.length || run.charCodeAt(i) < 48) {
      bounds[k++] = offset + start;
      bounds[k++] = offset + i;
      start = i + 1;
    }
  }
  return bounds;
}

/**
 * Marks the digit groups of a run that form a card number: one group of 13–19
 * digits, or consecutive groups of 3–6 digits (4-4-4-4, 4-6-5, 4-4-4-4-3)
 * totalling 13–19, that pass the Luhn check. Each start looks at most 19
 * digits ahead and keeps running Luhn sums, so a run costs linear time.
 */
function cardGroups(text: string, bounds: Int32Array, first: number, last: number): Uint8Array {
  const groups = last + 1;
  const marked = new Uint8Array(bounds.length / 2);
  for (let i = first; i < groups; i++) {
    // evenDoubled / oddDoubled: the Luhn sum if digits at even / odd positions (from the left) are doubled.
    let evenDoubled = 0;
    let oddDoubled = 0;
    let count = 0;
    for (let j = i; j < groups; j++) {
      const start = bounds[2 * j] as number;
      const len = (bounds[2 * j + 1] as number) - start;
      const single = i === j && len >= MIN_DIGITS;
      if ((!single && (len < 3 || len > 6)) || count + len > MAX_DIGITS) break;
      for (let p = start; p < start + len; p++, count++) {
        const d = text.charCodeAt(p) - 48;
        const twice = d * 2 > 9 ? d * 2 - 9 : d * 2;
        if (count % 2 === 0) {
          evenDoubled += twice;
          oddDoubled += d;
        } else {
          evenDoubled += d;
          oddDoubled += twice;
        }
      }
      // The rightmost digit is never doubled: with an odd count that is an even position.
      const sum = count % 2 === 1 ? oddDoubled : evenDoubled;
      if (count >= MIN_DIGITS && sum % 10 === 0) marked.fill(1, i, j + 1);
      if (single) break;
    }
  }
  return marked;
}

// Matches a stretch holding an even number of double quotes.
const EVEN_QUOTES = /^[^"]*(?:"[^"]*"[^"]*)*$/;

/**
 * Tells whether a position of a JSON document (no escapes in its strings) is inside a string.
 * Asked for increasing positions, it reads each part of the text once, in native regex scans.
 */
function quoteCounter(text: string): (at: number) => boolean {
  let pos = 0;
  let inside = false;
  return (at) => {
    if (at > pos) {
      if (!EVEN_QUOTES.test(text.slice(pos, at))) inside = !inside;
      pos = at;
    }
    return inside;
  };
}

/**
 * Whether digits at [from, to) of a JSON document may be a number of the document: only then is
 * the quote count needed. Before a number comes `:`, `,`, `[` or nothing (blanks and a sign
 * aside); anything else (a quote, a letter) means the digits are inside a string.
 */
function mayBeNumber(text: string, from: number): boolean {
  let i = from - 1;
  while (i >= 0 && isNumberChar(text.charCodeAt(i))) i--;
  while (i >= 0 && isJsonSpace(text.charCodeAt(i))) i--;
  const c = text.charCodeAt(i);
  return i < 0 || c === 58 || c === 44 || c === 91;
}

function isJsonSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** `[-+.eE0-9]`: the characters of a JSON number. */
function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
}

/**
 * Replaces Luhn-valid card numbers (plain or grouped with spaces or dashes) with `placeholder`.
 * Commas separate numbers (CSV rows, JSON arrays); only a dot makes a decimal fraction. `json`: the
 * text is a JSON document whose strings hold no escapes, and a card that is a number of the
 * document becomes a string, so the document stays valid.
 */
export function redactCards(text: string, placeholder: string, json = false): string {
  let out = "";
  let last = 0;
  const inString = json ? quoteCounter(text) : undefined;
  DIGIT_RUN.lastIndex = 0;
  for (let m = DIGIT_RUN.exec(text); m !== null; m = DIGIT_RUN.exec(text)) {
    const run = m[0];
    if (run.length < MIN_DIGITS) continue;
    const start = m.index;
    const end = start + run.length;
    // Digits glued to letters are part of a longer token (a hex digest, a UUID, an id), not a card.
    if (gluedBefore(text, start) || gluedAfter(text, end)) continue;
    const bounds = groupsOf(run, start);
    // The fraction or the integer part of a decimal number ("0.4111…", "4111….5") is not a card;
    // only that group is left out, so "v1.2 4111 1111 1111 1111" still finds the card.
    const fraction = text.charCodeAt(start - 1) === 46 && isDigit(text.charCodeAt(start - 2));
    const integer = text.charCodeAt(end) === 46 && isDigit(text.charCodeAt(end + 1));
    const marked = cardGroups(text, bounds, fraction ? 1 : 0, bounds.length / 2 - (integer ? 2 : 1));
    const groups = marked.length;
    for (let i = 0; i < groups; i++) {
      if (marked[i] === 0) continue;
      let j = i;
      while (j + 1 < groups && marked[j + 1] === 1) j++;
      let from = bounds[2 * i] as number;
      let to = bounds[2 * j + 1] as number;
      if (from < last) break; // inside a number token already replaced
      if (inString !== undefined && mayBeNumber(text, from) && !inString(from)) {
        // A number of the document is a card only when it is the card (a sign aside): digits in
        // an exponent or beside a fraction are part of another number. A card becomes a string.
        let a = from;
        let b = to;
        while (a > last && isNumberChar(text.charCodeAt(a - 1))) a--;
        while (b < text.length && isNumberChar(text.charCodeAt(b))) b++;
        if (b !== to || from - a > (text.charCodeAt(a) === 45 ? 1 : 0)) {
          i = j;
          continue;
        }
        from = a;
        to = b;
        out += `${text.slice(last, from)}"${placeholder}"`;
      } else {
        out += text.slice(last, from) + placeholder;
      }
      last = to;
      i = j;
    }
    if (DIGIT_RUN.lastIndex < last) DIGIT_RUN.lastIndex = last;
  }
  return last === 0 ? text : out + text.slice(last);
}

function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
/** `…a4111…`, `…-a456-4111…`: the run continues a token on its left. */
function gluedBefore(text: string, start: number): boolean {
  const c = text.charCodeAt(start - 1);
  return isLetter(c) || (c === 45 && isAlnum(text.charCodeAt(start - 2)));
}
/** `…1111ab`, `…1111-ab12`: the run continues a token on its right. */
function gluedAfter(text: string, end: number): boolean {
  const c = text.charCodeAt(end);
  return isLetter(c) || (c === 45 && isAlnum(text.charCodeAt(end + 1)));
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
