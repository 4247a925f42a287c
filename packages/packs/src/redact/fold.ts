/*
 * Key names written in compatibility forms (`ｐａｓｓｗｏｒｄ`, `ᴾᵃˢˢ`, `ℙassword`) are the same names
 * after NFKC. Normalising the whole text would move every offset, so keys are looked for on a
 * view of the same length where each character whose NFKC form is one ASCII character is that
 * character; values and the output come from the text itself. Invisible characters inside a
 * name (`pass\u200bword`) are moved out of it on the view.
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
  const folded = FOLDABLE.test(text) ? text.replace(FOLDABLE, fold) : text;
  return INVISIBLE.test(folded) ? invisibleFirst(folded) : folded;
}

// Characters that show nothing (zero-width space, joiners, word joiner, BOM, soft hyphen): `pass\u200bword`.
const INVISIBLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/;

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 45;
}
function isInvisible(c: number): boolean {
  return c === 0xad || (c >= 0x200b && c <= 0x200d) || c === 0x2060 || c === 0xfeff;
}

/**
 * In each run of word and invisible characters, the invisible ones moved to its start: the name
 * reads whole and the run keeps its length and place. One pass.
 */
function invisibleFirst(text: string): string {
  let out = "";
  let last = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (!isWordChar(c) && !isInvisible(c)) {
      i++;
      continue;
    }
    let hidden = "";
    let shown = "";
    const start = i;
    for (; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (isInvisible(d)) hidden += text[i];
      else if (isWordChar(d)) shown += text[i];
      else break;
    }
    if (hidden !== "" && shown !== "") {
      out += text.slice(last, start) + hidden + shown;
      last = i;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}
