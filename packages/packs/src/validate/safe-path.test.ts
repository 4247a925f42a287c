import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix, win32 } from "node:path";
import { defineTool, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { checkPath, checkRealPath, safePath } from "./index.js";

const ROOT = "/srv/data";
const refused = (p: string) => checkPath(p, { root: ROOT });

describe("checkPath: refuses escapes however they are spelled", () => {
  it.each([
    ["../etc/passwd", "parent-directory traversal (..)"],
    ["a/../../b", "parent-directory traversal (..)"],
    ["a/..", "parent-directory traversal (..)"],
    ["%2e%2e/etc", "parent-directory traversal (..)"],
    ["%2E%2e%2Fetc", "parent-directory traversal (..)"],
    ["..%2f..%2fetc", "parent-directory traversal (..)"],
    ["..%5c..%5cwin.ini", "parent-directory traversal (..)"],
    ["%252e%252e/x", "parent-directory traversal (..)"],
    ["%25252e%25252e%25252fx", "parent-directory traversal (..)"],
    ["..\\..\\win.ini", "parent-directory traversal (..)"],
    ["．．／etc", "parent-directory traversal (..)"],
    ["．．＼etc", "parent-directory traversal (..)"],
    ["\u2024\u2024/etc", "parent-directory traversal (..)"],
    ["\u2025/etc", "parent-directory traversal (..)"],
    ["\ufe52\ufe52/etc", "parent-directory traversal (..)"],
    ["％２ｅ％２ｅ/x", "parent-directory traversal (..)"],
    ["%E2%80%A4%E2%80%A4/x", "parent-directory traversal (..)"],
    [".. /x", "parent-directory traversal (..)"],
    [". ./x", "parent-directory traversal (..)"],
    ["...", "parent-directory traversal (..)"],
    ["。。/x", "parent-directory traversal (..)"],
    ["/etc/passwd", "an absolute path"],
    ["\\Windows\\win.ini", "an absolute path"],
    ["%2fetc%2fpasswd", "an absolute path"],
    ["／etc", "an absolute path"],
    ["\\\\server\\share\\x", "a UNC or device path"],
    ["//server/share", "a UNC or device path"],
    ["\\\\?\\C:\\x", "a UNC or device path"],
    ["C:\\Windows", "a Windows drive letter"],
    ["c:/x", "a Windows drive letter"],
    ["C:x", "a Windows drive letter"],
    ["c%3a/x", "a Windows drive letter"],
    ["file.txt:stream", "a colon (drive-relative paths and alternate data streams)"],
    ["~/x", "home-directory expansion (~)"],
    ["~root", "home-directory expansion (~)"],
    ["%7e/x", "home-directory expansion (~)"],
    ["a\u0000.txt", "control or invisible characters (NUL, bidi overrides, zero-width)"],
    ["a%00.txt", "control or invisible characters (NUL, bidi overrides, zero-width)"],
    ["a\nb", "control or invisible characters (NUL, bidi overrides, zero-width)"],
    ["a\u202etxt.exe", "control or invisible characters (NUL, bidi overrides, zero-width)"],
    [".\u200b./x", "control or invisible characters (NUL, bidi overrides, zero-width)"],
    ["a\ud800", "control or invisible characters (NUL, bidi overrides, zero-width)"],
    ["..\u2215etc", "a look-alike of a path separator"],
    ["..\u2044etc", "a look-alike of a path separator"],
    ["%c0%ae%c0%ae/x", "malformed percent-encoding"],
    ["%ff", "malformed percent-encoding"],
    ["CON", "a reserved device name"],
    ["logs/nul.txt", "a reserved device name"],
    ["COM¹", "a reserved device name"],
    ["%2525252525252e/x", "too many layers of percent-encoding"],
    ["", "the path is empty"],
    ["a".repeat(5000), "the path is longer than 4096 characters"],
  ])("%j", (path, reason) => {
    expect(refused(path)).toEqual({ ok: false, reason });
  });

  it("refuses non-strings and the root itself when asked", () => {
    expect(checkPath(42, { root: ROOT })).toEqual({ ok: false, reason: "the path must be a string, got number" });
    expect(checkPath(null, { root: ROOT })).toEqual({ ok: false, reason: "the path must be a string, got null" });
    expect(checkPath(".", { root: ROOT, allowRoot: false })).toEqual({
      ok: false,
      reason: "it resolves outside the allowed root",
    });
    expect(() => checkPath("a", { root: "" })).toThrow(/^toolware\/validate: checkPath\(\) needs \{ root \}/);
  });

  it.each([
    ["a.txt", "/srv/data/a.txt"],
    ["notes/2024/a.md", "/srv/data/notes/2024/a.md"],
    ["./a/./b", "/srv/data/a/b"],
    ["dir\\file.txt", "/srv/data/dir/file.txt"],
    [".", "/srv/data"],
    ["a..b/c", "/srv/data/a..b/c"],
    [".hidden", "/srv/data/.hidden"],
    ["100%.txt", "/srv/data/100%.txt"],
    ["a%20b.txt", "/srv/data/a%20b.txt"],
    ["报告.txt", "/srv/data/报告.txt"],
    ["ｒｅｐｏｒｔ.txt", "/srv/data/ｒｅｐｏｒｔ.txt"],
  ])("accepts %j", (path, resolved) => {
    expect(checkPath(path, { root: ROOT })).toEqual({ ok: true, resolved });
  });
});

// Pieces an attacker combines: real and encoded dots and slashes, look-alikes, drive and home markers.
const PIECES = [
  "..",
  ".",
  "a",
  "b.txt",
  "...",
  ". .",
  "%2e",
  "%2E%2e",
  "%252e",
  "%25252e",
  "．",
  "．．",
  "\u2024",
  "\u2025",
  "\ufe52",
  "。",
  "/",
  "\\",
  "%2f",
  "%2F",
  "%5c",
  "%255c",
  "／",
  "＼",
  "\u2215",
  "C:",
  "c:",
  ":",
  "~",
  "%7e",
  "%00",
  "\u0000",
  "%c0%ae",
  "％２ｅ",
  "％２ｆ",
  "%",
  "%%",
  "\u200b",
  " ",
  "nul",
  "x%",
];

/** Every way a path could be read, by a tool or a layer under it: literal, NFKC, percent-decoded, backslash as separator. */
function readings(path: string): string[] {
  const out = new Set<string>([path]);
  let current = path;
  for (let i = 0; i < 8; i++) {
    current = current.normalize("NFKC");
    out.add(current);
    try {
      current = decodeURIComponent(current);
    } catch {
      current = current.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    }
    out.add(current);
  }
  for (const r of [...out]) out.add(r.replaceAll("\\", "/"));
  return [...out];
}

function escapesPosix(path: string): boolean {
  const rel = posix.relative(ROOT, posix.resolve(ROOT, path));
  return rel === ".." || rel.startsWith("../") || posix.isAbsolute(rel);
}

function escapesWin32(path: string): boolean {
  const root = "C:\\srv\\data";
  const rel = win32.relative(root, win32.resolve(root, path));
  return rel === ".." || rel.startsWith("..\\") || win32.isAbsolute(rel);
}

describe("checkPath: property tests", () => {
  const attack = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 10 }).map((p) => p.join(""));

  it("no accepted path escapes the root under any reading (POSIX or Windows)", () => {
    fc.assert(
      fc.property(attack, (path) => {
        const check = checkPath(path, { root: ROOT });
        if (!check.ok) return;
        expect(check.resolved === ROOT || check.resolved.startsWith(`${ROOT}/`)).toBe(true);
        for (const r of readings(path)) {
          expect(escapesPosix(r), r).toBe(false);
          expect(escapesWin32(r), r).toBe(false);
          expect(r.includes("\u0000"), r).toBe(false);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("accepts plain relative paths and resolves them under the root", () => {
    const segment = fc
      .stringMatching(/^[a-z0-9_-]{1,8}(\.[a-z]{1,4})?$/)
      .filter((s) => !/^(con|prn|aux|nul|com\d|lpt\d)$/.test(s.split(".")[0] ?? ""));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const path = segments.join("/");
        expect(checkPath(path, { root: ROOT })).toEqual({ ok: true, resolved: `${ROOT}/${path}` });
      }),
    );
  });

  it("refuses every path with a literal .. segment", () => {
    const segment = fc.oneof(fc.constant(".."), fc.stringMatching(/^[a-z]{1,4}$/));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), fc.constantFrom("/", "\\"), (segments, sep) => {
        fc.pre(segments.includes(".."));
        expect(checkPath(segments.join(sep), { root: ROOT }).ok).toBe(false);
      }),
    );
  });
});

describe("safePath pack", () => {
  const readFile = defineTool({
    name: "read_file",
    execute: (input: Record<string, unknown>) => `content of ${String(input.path)}`,
  });
  const copy = defineTool({ name: "copy_files", execute: () => "copied" });

  it("blocks bad paths and names the field, not the value", async () => {
    const hooks = new ToolHooks();
    hooks.use(
      safePath({ tools: ["read_file", "copy_files"], root: ROOT, fields: ["path", "sources"], required: false }),
    );
    const out = await hooks.invoke(readFile, { path: "..%2f..%2fetc/passwd" });
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe('invalid path in "path": parent-directory traversal (..)');
    const many = await hooks.invoke(copy, { sources: ["a.txt", "/etc/shadow"] });
    expect(many.reason).toBe('invalid path in "sources"[1]: an absolute path');
    expect((await hooks.invoke(readFile, { path: "notes/a.md" })).status).toBe("ok");
    expect((await hooks.invoke(readFile, { path: 7 })).reason).toBe(
      'invalid path in "path": the path must be a string, got number',
    );
  });

  it("requires the fields by default and can rewrite paths to their resolved form", async () => {
    const hooks = new ToolHooks();
    hooks.use(safePath({ tools: "read_file", root: ROOT, rewrite: true }));
    expect((await hooks.invoke(readFile, {})).reason).toBe('"path" is required');
    const input = { path: "notes\\a.md" };
    const out = await hooks.invoke(readFile, input);
    expect(out.result).toBe("content of /srv/data/notes/a.md");
    expect(input.path).toBe("/srv/data/notes/a.md");
  });

  describe("with followSymlinks", () => {
    const base = mkdtempSync(join(tmpdir(), "toolware-safepath-"));
    const root = join(base, "root");
    mkdirSync(join(root, "docs"), { recursive: true });
    writeFileSync(join(base, "secret.txt"), "secret");
    writeFileSync(join(root, "docs", "a.md"), "ok");
    symlinkSync(base, join(root, "escape"));
    symlinkSync(join(root, "docs"), join(root, "inside"));
    afterAll(() => rmSync(base, { recursive: true, force: true }));

    it("refuses links that lead outside the real root, accepts the rest", async () => {
      expect(await checkRealPath("escape/secret.txt", { root })).toEqual({
        ok: false,
        reason: "a symbolic link leads outside the allowed root",
      });
      expect((await checkRealPath("inside/a.md", { root })).ok).toBe(true);
      expect((await checkRealPath("docs/new/file.md", { root })).ok).toBe(true);
      expect((await checkRealPath("escape/new.txt", { root })).ok).toBe(false);
      expect((await checkRealPath("../x", { root })).ok).toBe(false);
      expect(await checkRealPath("a.md", { root: join(base, "missing") })).toEqual({
        ok: false,
        reason: "the path could not be resolved (ENOENT)",
      });
    });

    it("blocks such calls through the pack", async () => {
      const hooks = new ToolHooks();
      hooks.use(safePath({ tools: "read_file", root, followSymlinks: true }));
      expect((await hooks.invoke(readFile, { path: "escape/secret.txt" })).status).toBe("blocked");
      expect((await hooks.invoke(readFile, { path: "inside/a.md" })).status).toBe("ok");
    });
  });

  it.each([
    [{ root: ROOT }, /`tools` is required/],
    [{ tools: "x" }, /`root` must be/],
    [{ tools: "x", root: ROOT, fields: [] }, /`fields`/],
    [{ tools: "x", root: ROOT, followSymlinks: 1 }, /`followSymlinks`/],
    [{ tools: "x", root: ROOT, base: "/" }, /unknown option `base`/],
  ])("rejects %j", (options, error) => {
    expect(() => safePath(options as never)).toThrow(/^toolware\/validate: safePath/);
    expect(() => safePath(options as never)).toThrow(error);
  });
});
