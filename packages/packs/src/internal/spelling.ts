/*
 * How a tool or role name is spelled, for the matchers in tool-match.ts. Two questions:
 * - What does a name look like? `fold` maps look-alike letters to ASCII and drops invisible
 *   characters, so deny-style lists (where matching more is the safe direction) catch disguises.
 * - Is a name spelled canonically? An allow list admits a name only when it is: no invisible or
 *   formatting characters and nothing NFKC would change (fullwidth or styled letters, ligatures,
 *   compatibility spaces). `normalizeName` alone would fold those away and admit the disguise.
 *   And its letters must be the entry's: `strictForm` normalises case and separators like
 *   `normalizeName` but keeps letters outside ASCII, so `réad_file` is not `read_file`.
 */

// Letters NFKD leaves alone that render like ASCII ones. Folding them only ever makes a
// deny-style list match more names, so the table errs on the side of including a character.
const CONFUSABLES: Readonly<Record<string, string>> = {
  а: "a",
  в: "b",
  е: "e",
  к: "k",
  м: "m",
  н: "h",
  о: "o",
  р: "p",
  с: "c",
  т: "t",
  у: "y",
  х: "x",
  ѕ: "s",
  і: "i",
  ї: "i",
  ј: "j",
  ԁ: "d",
  ԛ: "q",
  ԝ: "w",
  ӏ: "l",
  һ: "h",
  ү: "y",
  ɡ: "g",
  ı: "i",
  А: "A",
  В: "B",
  Е: "E",
  К: "K",
  М: "M",
  Н: "H",
  О: "O",
  Р: "P",
  С: "C",
  Т: "T",
  У: "Y",
  Х: "X",
  Ѕ: "S",
  І: "I",
  Ј: "J",
  Ԁ: "D",
  Ԛ: "Q",
  Ԝ: "W",
  Ӏ: "l",
  Һ: "H",
  Ү: "Y",
  α: "a",
  β: "b",
  ε: "e",
  ι: "i",
  κ: "k",
  ν: "v",
  ο: "o",
  ρ: "p",
  τ: "t",
  υ: "u",
  χ: "x",
  ω: "w",
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
  ǀ: "l",
  ℓ: "l",
};

// Characters that render as nothing (or as a blank): formatting characters (zero-width space and
// joiners, word joiner, BOM, soft hyphen, direction marks and overrides, tags), combining marks,
// control characters other than ASCII whitespace, private-use, unassigned and lone surrogate code
// points, and the letters that are blank by design (Hangul fillers, the blank Braille pattern).
const INVISIBLE = /[\p{Cf}\p{Mn}\p{Me}\p{Co}\p{Cn}\p{Cs}\u115F\u1160\u3164\uFFA0\u2800]|[^\P{Cc}\t\n\r\f\v]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");
// Printable ASCII and ASCII whitespace: canonical as they are, and nothing to fold.
const PLAIN_ASCII = /^[\t\n\r\f\v\x20-\x7e]*$/;

/**
 * A name with look-alike letters mapped to ASCII, compatibility forms decomposed (NFKD) and
 * invisible characters removed: `dеlete\u00adfile` (Cyrillic е, soft hyphen) reads `deletefile`.
 *
 * @example
 * ```ts
 * fold("ｄｅｌｅｔｅ_fіle"); // "delete_file"
 * ```
 */
export function fold(name: string): string {
  if (PLAIN_ASCII.test(name)) return name;
  let out = "";
  for (const ch of name.normalize("NFKD").replace(INVISIBLE_ALL, "")) out += CONFUSABLES[ch] ?? ch;
  return out;
}

/**
 * True when a name is spelled canonically: no invisible or formatting character, and NFKC leaves
 * it as it is. Letters outside ASCII are canonical (`café`); their look-alikes are a matter for
 * the matchers, which compare against ASCII entries.
 *
 * @example
 * ```ts
 * isCanonicalName("read_file"); // true
 * isCanonicalName("read\u200bfile"); // false (zero-width space)
 * isCanonicalName("ｒｅａｄ_file"); // false (fullwidth letters)
 * ```
 */
export function isCanonicalName(name: string): boolean {
  if (PLAIN_ASCII.test(name)) return true;
  return !INVISIBLE.test(name) && name.normalize("NFKC") === name;
}

/**
 * A name with its invisible characters, and those NFKC would change, written as `\u{…}` escapes,
 * for messages: a reason that prints a zero-width space as nothing would name the wrong tool.
 * A canonically spelled name comes back as it is.
 *
 * @example
 * ```ts
 * visibleName("read\u200bfile"); // "read\\u{200b}file"
 * visibleName("café"); // "café"
 * ```
 */
export function visibleName(name: string): string {
  if (PLAIN_ASCII.test(name)) return name;
  let out = "";
  for (const ch of name) {
    const odd = INVISIBLE.test(ch) || ch.normalize("NFKC") !== ch;
    out += odd ? `\\u{${(ch.codePointAt(0) as number).toString(16)}}` : ch;
  }
  return out;
}

/**
 * `normalizeName` without its folding to ASCII: case, camelCase and separators are normalised the
 * same way, but every letter and digit stays as it is written. Equal to `normalizeName` for ASCII.
 *
 * @example
 * ```ts
 * strictForm("Read File"); // "read_file"
 * strictForm("réad_file"); // "réad_file" (normalizeName gives "read_file")
 * ```
 */
export function strictForm(name: string): string {
  return name
    .normalize("NFC")
    .replace(/([\p{Ll}\p{Nd}])(\p{Lu})/gu, "$1_$2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1_$2")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}*?]+/gu, "_")
    .replace(/^_+|_+$/g, "");
}
