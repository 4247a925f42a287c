import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapes } from "./corpus/oracle.js";
import { checkPath } from "./index.js";

const ROOT = "/srv/data";
const check = (p: string) => checkPath(p, { root: ROOT });
const TRAVERSAL = "parent-directory traversal (..)";
const LOOKALIKE = "a look-alike of a path separator";
const PRIVATE = "a private-use character (some layers read these as \\, : or /)";
const BAD_U = "malformed %u escape (IIS %uXXXX: four hex digits, surrogates in pairs)";
const PARAM = "parent-directory traversal with a path parameter (..;)";
const WILDCARD = "wildcards that can match .. (.?, ??, .*)";

describe("checkPath: IIS %uXXXX escapes get the readings of %XX", () => {
  it.each([
    ["%uff0e%uff0e/etc", TRAVERSAL],
    ["%uFF0E%uFF0E\\etc", TRAVERSAL],
    ["%u002e%u002e/etc", TRAVERSAL],
    ["%u002e%2e/etc", TRAVERSAL],
    ["%25u002e%25u002e/etc", TRAVERSAL],
    ["%2525uff0e%2525uff0e/etc", TRAVERSAL],
    ["..%uff0fetc", TRAVERSAL],
    ["..%uff3cetc", TRAVERSAL],
    ["..%u002fetc", TRAVERSAL],
    ["..%u2215etc", LOOKALIKE],
    ["..%u2216etc", LOOKALIKE],
    ["..%u29f5etc", LOOKALIKE],
    ["..%u2044etc", LOOKALIKE],
    ["..%uEFC8etc", PRIVATE],
    ["..%uF025etc", PRIVATE],
    ["%u002fetc/passwd", "an absolute path"],
    ["%u007e/x", "home-directory expansion (~)"],
    ["a%u0000.txt", "control or invisible characters (NUL, bidi overrides, zero-width)"],
    ["a%u202e.txt", "control or invisible characters (NUL, bidi overrides, zero-width)"],
  ])("refuses %j", (path, reason) => {
    expect(check(path)).toEqual({ ok: false, reason });
  });

  it.each([
    ["%u12", BAD_U],
    ["%u12/x", BAD_U],
    ["%uZZZZ", BAD_U],
    ["a%u", BAD_U],
    ["%U00", BAD_U],
    ["%users.txt", BAD_U],
    ["%uD800", BAD_U],
    ["%uD800x", BAD_U],
    ["%uD800%u0041", BAD_U],
    ["%uDC00%uD800", BAD_U],
    ["%25uZZZZ", BAD_U],
    ["%e2%80%u00a5", "malformed percent-encoding"],
    ["\ud800%u0041", "control or invisible characters (NUL, bidi overrides, zero-width)"],
    ["a%ef%bb%bf.txt", "control or invisible characters (NUL, bidi overrides, zero-width)"],
    ["%ef%bb%bf", "control or invisible characters (NUL, bidi overrides, zero-width)"],
  ])("fails closed on the malformed %j", (path, reason) => {
    expect(check(path)).toEqual({ ok: false, reason });
  });

  it.each([
    ["%uD83D%uDE00.txt", "/srv/data/%uD83D%uDE00.txt"],
    ["report%u00e9.txt", "/srv/data/report%u00e9.txt"],
    ["100%.txt", "/srv/data/100%.txt"],
    ["%%.txt", "/srv/data/%%.txt"],
  ])("accepts %j", (path, resolved) => {
    expect(check(path)).toEqual({ ok: true, resolved });
  });
});

describe("checkPath: servlet path parameters, best-fit code pages, private use, wildcards", () => {
  it.each([
    ["..;/etc", PARAM],
    ["..;jsessionid=1/etc", PARAM],
    ["a/..;x/b", PARAM],
    [". .;/x", PARAM],
    ["..%3b/etc", PARAM],
    ["%2e%2e;/etc", PARAM],
    ["%u002e%u002e%u003b/etc", PARAM],
    ["..¥etc", TRAVERSAL],
    ["..₩etc", TRAVERSAL],
    ["..%u00a5etc", TRAVERSAL],
    ["..%c2%a5etc", TRAVERSAL],
    ["\ue000.txt", PRIVATE],
    ["a\uf05cb", PRIVATE],
    ["\u{f0000}", PRIVATE],
    [".?/etc", WILDCARD],
    ["??/etc", WILDCARD],
    ["?./etc", WILDCARD],
    [".*/etc", WILDCARD],
    ["*.*/etc", WILDCARD],
    ["a/?*/b", WILDCARD],
    [".%3f/etc", WILDCARD],
    ["?.;x/etc", WILDCARD],
    ["logs/con;x.txt", "a reserved device name"],
    // Counterexample of the safe-segments property below (seed 134426651), whose filter missed it.
    ["pｒN;", "a reserved device name"],
    ["?.%3b./etc", WILDCARD],
  ])("refuses %j", (path, reason) => {
    expect(check(path)).toEqual({ ok: false, reason });
  });

  it.each([
    ["a;b.txt", "/srv/data/a;b.txt"],
    ["x/.;/y", "/srv/data/x/.;/y"],
    ["price¥100.txt", "/srv/data/price¥100.txt"],
    ["*.txt", "/srv/data/*.txt"],
    ["src/*", "/srv/data/src/*"],
    ["**/a.md", "/srv/data/**/a.md"],
    ["?", "/srv/data/?"],
  ])("accepts %j", (path, resolved) => {
    expect(check(path)).toEqual({ ok: true, resolved });
  });
});

// Ways to write a dot and a separator that some layer reads as one.
const DOTS = [
  ".",
  "%2e",
  "%2E",
  "%252e",
  "%25252e",
  "%u002e",
  "%uff0e",
  "%uFF0E",
  "%25uff0e",
  "．",
  "％２ｅ",
  "%c0%ae",
];
const DOTS_PAIR = ["‥", "%e2%80%a5", "%u2025"];
const SEPARATORS = [
  ["/", "\\", "%2f", "%5c", "%252f", "%255c", "%u002f", "%u005c", "%uff0f", "%uff3c", "%25u2215"],
  ["%u2215", "%u2216", "%u29f5", "∕", "∖", "⧵", "／", "＼", "%uEFC8", "%uF025", "¥", "₩", "%c0%af"],
].flat();

// Pieces for paths that the reference decoder of the corpus test (corpus/oracle.ts) judges.
const PIECES = [
  ...new Set([...DOTS, ...DOTS_PAIR, ...SEPARATORS]),
  ...["..", "a", "b.txt", ";", ";x", "%3b", "?", "%3f", "*", "%u", "%u00", "%uD83D", "%uDE00", "%25", "%", "%00", "~"],
  ...["％", "%uff05", "2e", "2f", "5c", "%%35", "63", "%25u", "u002e", "?.", ".?", "。", "%u3002", "C:", "%3a", "nul"],
];

describe("checkPath: properties", () => {
  it("accepts no path that escapes the root under the corpus test's reference decoder", () => {
    const path = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 8 }).map((p) => p.join(""));
    fc.assert(
      fc.property(path, (p) => {
        if (check(p).ok) expect(escapes(p), p).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it("refuses every path with a `..` segment, however its dots and separators are written", () => {
    const dotdot = fc.oneof(
      fc.tuple(fc.constantFrom(...DOTS), fc.constantFrom(...DOTS)).map(([a, b]) => a + b),
      fc.constantFrom(...DOTS_PAIR),
    );
    const param = fc.constantFrom("", "", ";", ";jsessionid=1", "%3b", "%u003bx");
    const segment = fc.oneof(
      fc.record({ dots: dotdot, param }).map(({ dots, param }) => ({ text: dots + param, up: true })),
      fc.stringMatching(/^[a-z0-9]{1,6}$/).map((text) => ({ text, up: false })),
    );
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 6 }),
        fc.array(fc.constantFrom(...SEPARATORS), { minLength: 6, maxLength: 6 }),
        (segments, seps) => {
          fc.pre(segments.some((s) => s.up));
          const path = segments.map((s, i) => (i === 0 ? "" : seps[i - 1]) + s.text).join("");
          expect(check(path).ok, path).toBe(false);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("refuses every path with a malformed %u escape, wherever it sits", () => {
    const bad = fc.oneof(
      fc.stringMatching(/^[0-9a-f]{0,3}$/).map((h) => `%u${h}`),
      fc.stringMatching(/^[0-9a-f]{0,3}[g-z]$/).map((h) => `%u${h}`),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => `%u${u.toString(16)}`),
    );
    const safe = fc.stringMatching(/^[a-z0-9/._-]{0,12}$/);
    fc.assert(
      fc.property(safe, bad, safe, (before, broken, after) => {
        // A trailing hex digit or a following low surrogate would complete the escape; keep it broken.
        fc.pre(!/^[0-9a-f]/i.test(after) || broken.length >= 6);
        const path = `${before}${broken}${after}`;
        expect(check(path), path).toEqual({ ok: false, reason: BAD_U });
      }),
    );
  });

  it("accepts any path built from safe segments, in any script, with either separator", () => {
    const segment = fc
      .stringMatching(/^[a-zA-Z0-9_é报ｒ-][a-zA-Z0-9_ .;é报ｒ-]{0,7}$/)
      // A device name before an extension or a path parameter (`nul.txt`, `pｒN;`, NFKC-folded): refused by design.
      .filter((s) =>
        [s, s.split(";")[0] ?? ""].every(
          (part) =>
            !/^(con|prn|aux|nul|com\d|lpt\d|conin\$|conout\$)$/i.test(
              part.normalize("NFKC").split(".")[0]?.trim() ?? "",
            ),
        ),
      );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), fc.constantFrom("/", "\\"), (segments, sep) => {
        const path = segments.join(sep);
        expect(check(path), path).toEqual({ ok: true, resolved: `${ROOT}/${segments.join("/")}` });
      }),
      { numRuns: 2000 },
    );
  });
});
