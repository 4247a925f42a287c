/*
 * Key names written in compatibility forms (`ｐａｓｓｗｏｒｄ`, `ᴾᵃˢˢ`, `ℙassword`) are the same names
 * after NFKC. Normalising the whole text would move every offset, so keys are looked for on a
 * view of the same length where each character whose NFKC form is one ASCII character is that
 * character; values and the output come from the text itself.
 */

// Characters of the Basic Multilingual Plane whose NFKC form is a single ASCII character (letters,
// digits and a few symbols): superscripts and ordinals, modifier letters, letterlike symbols,
// sub/superscript digits, circled and fullwidth forms. fold.test.ts checks this class against
// String.prototype.normalize.
const FOLDABLE =
  /[\u00a0\u00aa\u00b2\u00b3\u00b9\u00ba\u017f\u02b0-\u02b8\u02e0-\u02e4\u037e\u1d2c-\u1d6a\u1d78\u1d9b-\u1dbf\u1fef\u2000-\u200a\u2024\u202f\u205f\u2070-\u209c\u2102-\u2149\u2160-\u217f\u2460-\u2468\u24b6-\u24ea\u2c7c\u2c7d\u3000\ua7f1-\ua7f4\ufb29\ufe10-\ufe6b\uff01-\uff5e]/g;

const NON_ASCII = /[\u0080-\uffff]/;
// Node's native UTF-8 length is many times quicker than a regex scan; elsewhere the regex answers.
const utf8Length = (globalThis as { Buffer?: { byteLength(text: string, encoding: "utf8"): number } }).Buffer
  ?.byteLength;
const hasNonAscii = (text: string): boolean =>
  utf8Length === undefined ? NON_ASCII.test(text) : utf8Length(text, "utf8") !== text.length;
const cache = new Map<string, string>();

function fold(c: string): string {
  let f = cache.get(c);
  if (f === undefined) {
    const n = c.normalize("NFKC");
    f = n.length === 1 && n.charCodeAt(0) < 128 ? n : c;
    cache.set(c, f);
  }
  return f;
}

/**
 * The text with each compatibility character folded to its ASCII form, same length; the text
 * itself when it has none.
 *
 * @example
 * ```ts
 * foldedView("ｐａｓｓｗｏｒｄ＝x"); // "password=x"
 * ```
 */
export function foldedView(text: string): string {
  // Most text is ASCII, and this test is the cheaper scan.
  if (!hasNonAscii(text)) return text;
  FOLDABLE.lastIndex = 0;
  return FOLDABLE.test(text) ? text.replace(FOLDABLE, fold) : text;
}
