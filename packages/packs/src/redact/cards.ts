// A run of digit groups separated by single spaces or dashes. `(?:[ -]\d+)*` cannot split a
// digit run two ways (each repetition must start with a separator) and nothing follows it that
// could fail, so the engine never backtracks; windows inside a run are checked in code below.
const DIGIT_RUN = /(?<!\d)\d+(?:[ -]\d+)*/g;
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

/** Replaces Luhn-valid card numbers (plain or grouped with spaces or dashes) with `placeholder`. */
export function redactCards(text: string, placeholder: string): string {
  let out = "";
  let last = 0;
  DIGIT_RUN.lastIndex = 0;
  for (let m = DIGIT_RUN.exec(text); m !== null; m = DIGIT_RUN.exec(text)) {
    const run = m[0];
    if (run.length < MIN_DIGITS) continue;
    const start = m.index;
    const end = start + run.length;
    const bounds = groupsOf(run, start);
    // The fraction or the integer part of a decimal number ("0.4111…", "4111….5") is not a card;
    // only that group is left out, so "v1.2 4111 1111 1111 1111" still finds the card.
    const fraction = /[.,]/.test(text[start - 1] ?? "") && /\d/.test(text[start - 2] ?? "");
    const integer = /[.,]/.test(text[end] ?? "") && /\d/.test(text[end + 1] ?? "");
    const marked = cardGroups(text, bounds, fraction ? 1 : 0, bounds.length / 2 - (integer ? 2 : 1));
    const groups = marked.length;
    for (let i = 0; i < groups; i++) {
      if (marked[i] === 0) continue;
      let j = i;
      while (j + 1 < groups && marked[j + 1] === 1) j++;
      out += text.slice(last, bounds[2 * i]) + placeholder;
      last = bounds[2 * j + 1] as number;
      i = j;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}
