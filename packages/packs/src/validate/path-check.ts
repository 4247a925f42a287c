import { realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { packTypeError, shown } from "../internal/errors.js";
import { checkBoolean, checkKeys, checkOptionsObject, ownOptions } from "../internal/options.js";
import { readings } from "./decode.js";

/** What {@link checkPath} answers. */
export type PathCheck =
  | { readonly ok: true; readonly resolved: string }
  | { readonly ok: false; readonly reason: string };

/** Options of {@link checkPath}. */
export interface CheckPathOptions {
  /** The directory every path must stay inside (resolved against the working directory). */
  root: string;
  /** Accept a path that is the root itself (`"."`). Default true. */
  allowRoot?: boolean;
}

const CHECK_PATH_KEYS = ["root", "allowRoot"];
const MAX_LENGTH = 4096;
// Controls (NUL included), format characters (bidi overrides, zero-width), lone surrogates, line separators.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;
// Slash look-alikes that NFKC leaves alone (fullwidth ／ ＼ and small ﹨ it maps to real slashes):
// fraction slash, division slash, set minus, solidus operators, box-drawing diagonals.
const SLASH_LOOKALIKE = /[\u2044\u2215\u2216\u29f5\u29f8\u29f9\u2571\u2572]/;
// A segment made of dots (or dots that other systems read as dots) and spaces: Windows trims
// trailing dots and spaces, so ".. ", ". ." and "..." can all end up meaning "..".
const DOTS_SEGMENT = /^[\s.\u3002\uff61]*$/;
const DOT_LIKE = /[.\u3002\uff61]/g;
const DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9]|conin\$|conout\$)$/i;
// Private-use code points: Cygwin, Services for Macintosh and Samba map the characters Windows
// forbids (`\ : * ? " < > |`) into this area, and traversal fuzzers (dotdotpwn) send U+EFC8 and U+F025 as slashes.
const PRIVATE_USE = /\p{Co}/u;
// A segment of dots and glob wildcards that a glob can expand to `..` (`.?`, `??`, `.*`, `*.*`):
// Windows' FindFirstFile does, and so did bash before `globskipdots`. A lone `*` or `**` is left alone.
const WILDCARD_DOTS = /^[\s.?*\u3002\uff61]+$/;

function fail(reason: string): PathCheck {
  return { ok: false, reason };
}

function isDots(segment: string): boolean {
  return DOTS_SEGMENT.test(segment) && (segment.match(DOT_LIKE)?.length ?? 0) >= 2;
}

function canMatchDots(segment: string): boolean {
  return WILDCARD_DOTS.test(segment) && /[?*]/.test(segment) && segment.trim().replace(/^\*+$/, "").length >= 2;
}

function isDevice(segment: string): boolean {
  return DEVICE.test(segment.split(".")[0]?.trim() ?? "");
}

function segmentProblem(segment: string): string | undefined {
  if (isDots(segment)) return "parent-directory traversal (..)";
  // Servlet containers (Tomcat, Jetty) drop path parameters: `..;x=1/` is read as `../`.
  const name = segment.split(";")[0] as string;
  if (name !== segment && isDots(name)) return "parent-directory traversal with a path parameter (..;)";
  if (canMatchDots(segment) || canMatchDots(name)) return "wildcards that can match .. (.?, ??, .*)";
  if (isDevice(segment) || isDevice(name)) return "a reserved device name";
  return undefined;
}

function isInside(root: string, target: string, allowRoot: boolean): boolean {
  const rel = relative(root, target);
  if (rel === "") return allowRoot;
  return !isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`);
}

function problem(form: string, root: string, allowRoot: boolean): string | undefined {
  if (INVISIBLE.test(form)) return "control or invisible characters (NUL, bidi overrides, zero-width)";
  if (SLASH_LOOKALIKE.test(form)) return "a look-alike of a path separator";
  if (PRIVATE_USE.test(form)) return "a private-use character (some layers read these as \\, : or /)";
  if (/^[\\/]{2}/.test(form)) return "a UNC or device path";
  if (/^[\\/]/.test(form)) return "an absolute path";
  if (form.startsWith("~")) return "home-directory expansion (~)";
  if (/^[A-Za-z]:/.test(form)) return "a Windows drive letter";
  if (form.includes(":")) return "a colon (drive-relative paths and alternate data streams)";
  for (const segment of form.split(/[\\/]/)) {
    const why = segmentProblem(segment);
    if (why !== undefined) return why;
  }
  if (!isInside(root, resolve(root, form.replaceAll("\\", "/")), allowRoot))
    return "it resolves outside the allowed root";
  return undefined;
}

/**
 * Decides whether a relative path stays inside `root`, however it is read: as
 * given, after NFKC normalisation (fullwidth `．．／`, one-dot leaders), after
 * URL decoding of `%XX` and IIS `%uXXXX`, repeatedly (`%2e%2e%2f`, `%252e`,
 * `%uff0e`), and after a best-fit code-page conversion (`¥` as `\`). A path
 * that cannot be decoded (invalid UTF-8, overlong forms, a broken `%u`) is
 * refused. Refuses absolute and UNC paths, drive letters, `~`, `..` segments
 * (also `..;` and wildcards that can match `..`), backslash traversal, control,
 * invisible and private-use characters, device names and slash look-alikes,
 * then checks with `path.resolve` + `path.relative` that the path lands inside the root.
 * `resolved` is the literal path (backslashes read as separators) made absolute.
 *
 * @example
 * ```ts
 * checkPath("notes/a.md", { root: "/srv/files" }); // { ok: true, resolved: "/srv/files/notes/a.md" }
 * checkPath("%2e%2e/etc/passwd", { root: "/srv/files" }); // { ok: false, reason: "parent-directory traversal (..)" }
 * ```
 */
export function checkPath(path: unknown, options: CheckPathOptions): PathCheck {
  options = ownOptions(options, "toolware/validate: checkPath()");
  checkOptionsObject(options, "toolware/validate: checkPath() needs { root } (a directory)");
  if (typeof options.root !== "string" || options.root === "") {
    throw packTypeError(
      "TOOLWARE_INVALID_OPTION",
      `toolware/validate: checkPath() needs { root } (a directory), got root ${shown(options.root)}`,
    );
  }
  // A misspelt `allowRoot: false` must not quietly leave the root allowed.
  checkKeys(options, CHECK_PATH_KEYS, "toolware/validate: checkPath()");
  checkBoolean(options.allowRoot, "allowRoot", "toolware/validate: checkPath()");
  if (typeof path !== "string") return fail(`the path must be a string, got ${path === null ? "null" : typeof path}`);
  if (path === "") return fail("the path is empty");
  if (path.length > MAX_LENGTH) return fail(`the path is longer than ${MAX_LENGTH} characters`);
  const root = resolve(options.root);
  const allowRoot = options.allowRoot ?? true;
  const forms = readings(path);
  if (typeof forms === "string") return fail(forms);
  for (const form of forms) {
    const why = problem(form, root, allowRoot);
    if (why !== undefined) return fail(why);
  }
  return { ok: true, resolved: resolve(root, path.replaceAll("\\", "/")) };
}

/** The real path of `target`, or of its deepest existing ancestor with the rest appended. */
async function realOrParent(target: string): Promise<string> {
  try {
    return await realpath(target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const parent = dirname(target);
    if ((code !== "ENOENT" && code !== "ENOTDIR") || parent === target) throw e;
    return join(await realOrParent(parent), target.slice(parent.length));
  }
}

/**
 * {@link checkPath}, then follows symbolic links: the real path (or, for a path
 * that does not exist yet, that of its deepest existing ancestor) must stay
 * inside the real root. Any other file-system error refuses the path.
 *
 * @example
 * ```ts
 * await checkRealPath("link-to-etc/passwd", { root: "/srv/files" }); // { ok: false, reason: "a symbolic link …" }
 * ```
 */
export async function checkRealPath(path: unknown, options: CheckPathOptions): Promise<PathCheck> {
  const lexical = checkPath(path, options);
  if (!lexical.ok) return lexical;
  try {
    const realRoot = await realpath(resolve(options.root));
    const real = await realOrParent(lexical.resolved);
    if (!isInside(realRoot, real, options.allowRoot ?? true))
      return fail("a symbolic link leads outside the allowed root");
  } catch (e) {
    return fail(`the path could not be resolved (${(e as NodeJS.ErrnoException).code ?? "error"})`);
  }
  return lexical;
}
