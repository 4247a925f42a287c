// The test's own reference decoder: every reading of a payload that some layer between an agent
// and a file system might make, and whether any of them leaves the root. It is written apart from
// the guard (path-check.ts, decode.ts) and more leniently than any one real decoder, so that the
// corpus test checks the guard against an independent idea of "escapes".

/** Code points some system reads as a dot, slash or backslash (beyond what NFKC already maps). */
const LOOKALIKES: Readonly<Record<string, string>> = {
  // Dots: fullwidth, halfwidth ideographic, ideographic full stop, one- and two-dot leaders, small full stop.
  "\uff0e": ".",
  "\uff61": ".",
  "\u3002": ".",
  "\u2024": ".",
  "\u2025": "..",
  "\ufe52": ".",
  // Slashes: fraction, division, big solidus, box diagonal, fullwidth.
  "\u2044": "/",
  "\u2215": "/",
  "\u29f8": "/",
  "\u2571": "/",
  "\uff0f": "/",
  // Backslashes: set minus, reverse solidus operator, big reverse solidus, box diagonal, fullwidth, small.
  "\u2216": "\\",
  "\u29f5": "\\",
  "\u29f9": "\\",
  "\u2572": "\\",
  "\uff3c": "\\",
  "\ufe68": "\\",
  // Best-fit: the yen and won signs are the backslash of the Japanese and Korean code pages, and
  // dotdotpwn lists U+EFC8 and U+F025 (private use) as slash encodings for IIS.
  "\u00a5": "\\",
  "\u20a9": "\\",
  "\uefc8": "/",
  "\uf025": "\\",
};
const LOOKALIKE_RE = new RegExp(`[${Object.keys(LOOKALIKES).join("")}]`, "gu");

/** The bytes of a string where `%XX` stands for one byte and every other character for its UTF-8. */
function bytesOf(text: string): number[] {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] === "%" && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 3), 16));
      i += 3;
    } else {
      const cp = text.codePointAt(i) as number;
      const ch = String.fromCodePoint(cp);
      bytes.push(...Buffer.from(ch, "utf8"));
      i += ch.length;
    }
  }
  return bytes;
}

/**
 * A decoder of the old, lax kind (IIS 4/5, early JVMs): a lead byte takes as many following bytes
 * as it announces, whatever they are, and keeps their low six bits, so overlong forms (`%c0%ae`,
 * `%e0%80%ae`, up to six bytes) and broken ones (`%c0%2e`, `%c0.`) become ASCII.
 */
function laxUtf8(bytes: readonly number[]): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    const extra = b >= 0xfc ? 5 : b >= 0xf8 ? 4 : b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : 0;
    if (extra === 0 || i + extra >= bytes.length) {
      out += String.fromCharCode(b);
      i++;
      continue;
    }
    let cp = b & (0x3f >> extra);
    for (let k = 1; k <= extra; k++) cp = cp * 64 + ((bytes[i + k] as number) & 0x3f);
    out += cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
    i += extra + 1;
  }
  return out;
}

/** A strict decoder: valid UTF-8 decodes, anything else becomes U+FFFD (what WHATWG `TextDecoder` does). */
function strictUtf8(bytes: readonly number[]): string {
  return new TextDecoder("utf-8").decode(Uint8Array.from(bytes));
}

/** A forgiving one that skips what is not valid UTF-8 (`iconv -c`, Python's `errors="ignore"`): `%c0%5c` is `\`. */
function skippingUtf8(bytes: readonly number[]): string {
  return strictUtf8(bytes).replaceAll("\ufffd", "");
}

const TRANSFORMS: readonly ((s: string) => string)[] = [
  (s) => (/%[0-9a-f]{2}/i.test(s) ? laxUtf8(bytesOf(s)) : s),
  (s) => (/%[0-9a-f]{2}/i.test(s) ? strictUtf8(bytesOf(s)) : s),
  (s) => (/%[0-9a-f]{2}/i.test(s) ? skippingUtf8(bytesOf(s)) : s),
  // IIS `%uXXXX`: one UTF-16 code unit each (pairs make one character).
  (s) => s.replace(/%u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
  (s) => s.normalize("NFKC"),
  (s) => s.replace(LOOKALIKE_RE, (c) => LOOKALIKES[c] as string),
  // Servlet containers drop path parameters: Tomcat reads `..;x=y/` as `../` (and `;x/` as an
  // empty segment, which is `./`, not a leading `/`).
  (s) => s.replace(/(^|[/\\])([^/\\;]*);[^/\\]*/g, (_m, sep: string, name: string) => sep + (name || ".")),
  // C strings end at NUL: `../../etc/passwd%00.png` opens `../../etc/passwd`.
  (s) => (s.includes("\0") ? s.slice(0, s.indexOf("\0")) : s),
  // Sanitisers that delete control characters: `.%00.` and `..%01` become `..`.
  (s) => s.replace(/\p{Cc}/gu, ""),
];

const MAX_READINGS = 2000;

/**
 * Every reading of `payload` reachable by the decodings above, applied in any order, repeatedly.
 *
 * @example
 * ```ts
 * allReadings("%uff0e%uff0e/x").includes("../x"); // true
 * ```
 */
export function allReadings(payload: string): string[] {
  const seen = new Set([payload]);
  let frontier = [payload];
  while (frontier.length > 0 && seen.size < MAX_READINGS) {
    const next: string[] = [];
    for (const s of frontier) {
      for (const t of TRANSFORMS) {
        const r = t(s);
        if (!seen.has(r)) {
          seen.add(r);
          next.push(r);
        }
      }
    }
    frontier = next;
  }
  return [...seen];
}

/**
 * Whether one reading leaves the root: absolute (`/`, `\`, a drive, `~`), or more `..` than
 * segments before them. A segment of two or more dots and spaces counts as `..` (Windows strips
 * trailing dots and spaces, and filters that delete `../` once turn `....//` into `../`), and so
 * do `.?`, `?.` and `??`, which a glob (Windows, bash before `globskipdots`) can match to `..`.
 */
export function readingEscapes(reading: string): boolean {
  const s = reading.replaceAll("\\", "/");
  if (s.startsWith("/") || s.startsWith("~") || /^[a-z]:/i.test(s)) return true;
  let depth = 0;
  for (const seg of s.split("/")) {
    if (seg === "" || seg === ".") continue;
    if ((/^[. ]+$/.test(seg) && (seg.match(/\./g)?.length ?? 0) >= 2) || /^[.?]{2}$/.test(seg)) {
      depth--;
      if (depth < 0) return true;
    } else {
      depth++;
    }
  }
  return false;
}

/** Whether some reading of `payload` leaves the root. */
export function escapes(payload: string): boolean {
  return allReadings(payload).some(readingEscapes);
}
