// Adversarial probes of checkPath's decoder (decode.ts, path-check.ts) through the public validate entry: no string
// throws out of it, and a path it accepts stays inside the root under each decoding a tool or a layer might apply.
import { posix, win32 } from "node:path";
import { checkPath } from "@toolware/packs/validate";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const ROOT = "/srv/data";
const inside = (p: string): boolean => p === ROOT || p.startsWith(`${ROOT}/`);

// Pieces of the ways out, so random paths reach the decoder's branches rather than only plain names.
const PIECES = [
  "..",
  ".",
  "/",
  "\\",
  "%2e",
  "%2E",
  "%2f",
  "%5c",
  "%25",
  "%u002e",
  "%c0%ae",
  "%e0%80%ae",
  "%",
  "%u",
  "%zz",
  "~",
  ":",
  "C:",
  ";",
  "?",
  "*",
  "．",
  "／",
  "＼",
  "。",
  "\u2215",
  "\u0000",
  "\u202e",
  "\ud800",
  "a",
  "b.txt",
  " ",
  "CON",
];
const piece = fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: "binary", maxLength: 4 }));
const hostilePath = fc.array(piece, { maxLength: 14 }).map((parts) => parts.join(""));

/** Decodings applied in turn: lax percent-decoding (bad bytes kept), %uXXXX, NFKC, backslash as separator. */
function decodings(path: string): string[] {
  const out = new Set<string>([path]);
  let current = path;
  for (let i = 0; i < 6; i++) {
    let next = current.replace(/%u([0-9a-fA-F]{4})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
    next = next.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
    out.add(next);
    out.add(next.normalize("NFKC"));
    if (next === current) break;
    current = next;
  }
  return [...out].flatMap((p) => [p, p.replaceAll("\\", "/")]);
}

describe("checkPath on hostile strings", () => {
  it("never throws, and answers { ok, resolved } or { ok: false, reason } (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), hostilePath), (path) => {
        const check = checkPath(path, { root: ROOT });
        if (check.ok) expect(typeof check.resolved).toBe("string");
        else expect(typeof check.reason).toBe("string");
      }),
      { numRuns: 3000 },
    );
  });

  it("an accepted path stays inside the root under every decoding, POSIX and Windows (property)", () => {
    fc.assert(
      fc.property(hostilePath, (path) => {
        const check = checkPath(path, { root: ROOT });
        if (!check.ok) return;
        expect(inside(check.resolved), path).toBe(true);
        for (const form of decodings(path)) {
          expect(inside(posix.resolve(ROOT, form)), `${JSON.stringify(path)} read as ${JSON.stringify(form)}`).toBe(
            true,
          );
          const win = win32.relative("C:\\srv\\data", win32.resolve("C:\\srv\\data", form));
          expect(
            win === ".." || win.startsWith("..\\") || win32.isAbsolute(win),
            `${JSON.stringify(path)} on Windows`,
          ).toBe(false);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it.each([
    "%2e%2e/x",
    "%252e%252e/x",
    "%u002e%u002e/x",
    "．．/x",
    "..%5cx",
    "a/%2e%2e%2f%2e%2e/x",
    "%c0%ae%c0%ae/x",
    ".%2e/x",
    "a/..\\..\\x",
    "%%32%65%%32%65/x",
    // Found by the property above (seed -626505885): NFKC reads `%5c` + U+0301 as `%5ć`, a decoder
    // that does not normalise reads `\` + U+0301, a rooted path on Windows.
    "%5c\u0301",
    "%5C\u0301x",
    "%25%35c\u0301x",
  ])("refuses %j", (path) => {
    expect(checkPath(path, { root: ROOT }).ok).toBe(false);
  });

  it.each(["notes/a.md", "100%.txt", "a%20b.txt", "a..b", ".hidden", "报告.txt"])("accepts %s", (path) => {
    expect(checkPath(path, { root: ROOT })).toMatchObject({ ok: true });
  });

  it("answers a 4096-character path of escapes quickly", () => {
    const t = performance.now();
    for (const path of ["%".repeat(4096), "%25".repeat(1365), "%u".repeat(2048), "../".repeat(1365)]) {
      expect(typeof checkPath(path, { root: ROOT }).ok).toBe("boolean");
    }
    expect(checkPath("../".repeat(1365), { root: ROOT }).ok).toBe(false);
    expect(performance.now() - t).toBeLessThan(2000);
  });
});
