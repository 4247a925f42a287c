// The decodings checkPath applies before it judges a path. Each one is what some layer between an
// agent and the file system may do to the string: a URL decoder (`%XX`, and IIS's `%uXXXX`), a
// Unicode normaliser (NFKC), a Windows "best-fit" conversion to a code page. A guard must see
// every one of them, and refuse what none of them can read, rather than pass it through.

const MAX_DECODING_ROUNDS = 4;

// Characters a best-fit conversion turns into a backslash: the yen sign is the backslash of the
// Japanese code page 932, the won sign that of the Korean code page 949.
const BEST_FIT = /[\u00a5\u20a9]/;
const BEST_FIT_ALL = new RegExp(BEST_FIT.source, "g");

const HEX2 = /^[0-9A-Fa-f]{2}$/;
const HEX4 = /^[0-9A-Fa-f]{4}$/;

/** Why an escape could not be read. */
export type Malformed = { readonly malformed: string };

const BAD_PERCENT: Malformed = { malformed: "malformed percent-encoding" };
const BAD_U: Malformed = { malformed: "malformed %u escape (IIS %uXXXX: four hex digits, surrogates in pairs)" };

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/** Strict UTF-8: overlong forms (`%c0%ae`), surrogates and stray bytes are refused, never guessed at. */
function utf8(bytes: number[]): string | Malformed {
  if (bytes.length === 0) return "";
  try {
    // ignoreBOM keeps a decoded U+FEFF, so the invisible-character check still sees it.
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Uint8Array.from(bytes));
  } catch {
    return BAD_PERCENT;
  }
}

/**
 * One layer of URL decoding: runs of `%XX` as UTF-8 bytes and `%uXXXX` as UTF-16 code units. A `%`
 * not followed by two hex digits or by `u` stays literal (`100%.txt`); a `%u` without four hex
 * digits, a lone surrogate or invalid UTF-8 is an error.
 *
 * @example
 * ```ts
 * decodeEscapes("..%u2215x"); // "..∕x"
 * decodeEscapes("%u12"); // { malformed: "malformed %u escape …" }
 * ```
 */
export function decodeEscapes(text: string): string | Malformed {
  if (!text.includes("%")) return text;
  let out = "";
  let bytes: number[] = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] !== "%") {
      const flushed = utf8(bytes);
      if (typeof flushed !== "string") return flushed;
      out += flushed + (text[i] as string);
      bytes = [];
      i++;
      continue;
    }
    const two = text.slice(i + 1, i + 3);
    if (HEX2.test(two)) {
      bytes.push(Number.parseInt(two, 16));
      i += 3;
      continue;
    }
    const flushed = utf8(bytes);
    if (typeof flushed !== "string") return flushed;
    out += flushed;
    bytes = [];
    if (text[i + 1] !== "u" && text[i + 1] !== "U") {
      out += "%";
      i++;
      continue;
    }
    const unit = readUnit(text, i);
    if (unit === undefined) return BAD_U;
    if (isLow(unit)) return BAD_U;
    if (isHigh(unit)) {
      const low = readUnit(text, i + 6);
      if (low === undefined || !isLow(low)) return BAD_U;
      out += String.fromCharCode(unit, low);
      i += 12;
    } else {
      out += String.fromCharCode(unit);
      i += 6;
    }
  }
  const flushed = utf8(bytes);
  return typeof flushed === "string" ? out + flushed : flushed;
}

/** The code unit of a `%uXXXX` at `at`, if there is one. */
function readUnit(text: string, at: number): number | undefined {
  if (text[at] !== "%" || (text[at + 1] !== "u" && text[at + 1] !== "U")) return undefined;
  const hex = text.slice(at + 2, at + 6);
  return HEX4.test(hex) ? Number.parseInt(hex, 16) : undefined;
}

/**
 * Every reading of the path a tool or a layer below it might make: as given, NFKC, decoded
 * (repeatedly: `%252e`, `%25u002e`), and each of those after a best-fit code-page conversion.
 * A string when the path cannot be read at all (that string is the reason to refuse it).
 *
 * @example
 * ```ts
 * readings("%uff0e%uff0e/x"); // ["%uff0e%uff0e/x", "．．/x", "../x"]
 * ```
 */
export function readings(path: string): string[] | string {
  const forms = decodedChain(path, MAX_DECODING_ROUNDS);
  if (typeof forms === "string") return forms;
  for (const form of [...forms]) if (BEST_FIT.test(form)) forms.push(form.replace(BEST_FIT_ALL, "\\"));
  return forms;
}

/**
 * The form, then each round of NFKC and decoding. NFKC also composes a combining mark with the
 * hex digit before it (`%5c\u0301` reads `%5ć`), which hides the escape from that round, while a
 * URL decoder that does not normalise reads `\` and a combining mark: so each form that NFKC
 * changes is also decoded as given, and that reading's own rounds join the forms.
 */
function decodedChain(path: string, rounds: number): string[] | string {
  const forms = [path];
  const raw: string[] = [];
  let current = path;
  for (let round = 0; ; round++) {
    const nfkc = current.normalize("NFKC");
    if (nfkc !== current) {
      forms.push(nfkc);
      raw.push(current);
    }
    const decoded = decodeEscapes(nfkc);
    if (typeof decoded !== "string") return decoded.malformed;
    if (decoded === nfkc) break;
    if (round === rounds) return "too many layers of percent-encoding";
    forms.push(decoded);
    current = decoded;
  }
  for (const form of raw) {
    const decoded = decodeEscapes(form);
    // What only the NFKC reading can decode was judged above; a form decoding leaves as it is adds nothing.
    if (typeof decoded !== "string" || decoded === form || forms.includes(decoded)) continue;
    const more = rounds > 0 ? decodedChain(decoded, rounds - 1) : "too many layers of percent-encoding";
    if (typeof more === "string") return more;
    for (const f of more) if (!forms.includes(f)) forms.push(f);
  }
  return forms;
}
