import { builtinModules } from "node:module";
import { posix } from "node:path";
import { isRelativeLink, markdownLinks } from "./check-doc-links.js";
import type { Tarball } from "./tarball.js";

/** What a tarball is expected to hold beyond what its own manifest says. */
export interface TarballExpectation {
  /** The subpaths it must export (`"."`, `"./cache"`, …), besides `./package.json`; exactly these. */
  readonly subpaths?: readonly string[];
}

const DEPENDENCY_FIELDS = ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"] as const;
// Protocols that only a workspace (pnpm, yarn) understands: `npm install` fails on them (EUNSUPPORTEDPROTOCOL)
// or, for file:/link:, points at a folder the user does not have.
const LOCAL_PROTOCOL = /^(workspace|link|file|portal|catalog):/;
const BUILTINS = new Set(builtinModules);
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;

/** Every string an export condition tree leads to. */
function targets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(targets);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(targets);
  return [];
}

function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

function exportProblems(tarball: Tarball, expected: TarballExpectation): string[] {
  const { manifest, files } = tarball;
  const problems: string[] = [];
  const map = manifest.exports;
  if (map === null || typeof map !== "object" || Array.isArray(map)) {
    return ["package.json has no `exports` map: every entry point must be listed"];
  }
  const entries = Object.entries(map as Record<string, unknown>);
  for (const [key, value] of entries) {
    if (key.includes("*")) problems.push(`export "${key}" is a wildcard: list each subpath explicitly`);
    if (/(^|\/)internal(\/|$)/.test(key)) problems.push(`export "${key}" makes internal/ reachable`);
    for (const target of targets(value)) {
      if (/(^|\/)internal(\/|$)/.test(target)) problems.push(`export "${key}" leads into internal/ (${target})`);
      if (target.includes("*")) continue;
      if (!files.has(posix.normalize(target))) problems.push(`export "${key}" points at ${target}, not in the tarball`);
    }
    // A data file (the manifest, a JSON Schema) is exported as a plain path: no types, no module conditions.
    if (isDataExport(key)) continue;
    const conditions = value !== null && typeof value === "object" ? Object.keys(value) : [];
    if (!conditions.includes("types")) problems.push(`export "${key}" has no "types" condition`);
    if (!conditions.includes("default") && !conditions.includes("import")) {
      problems.push(`export "${key}" has no "default" or "import" condition`);
    }
    const types = (value as Record<string, unknown>).types;
    if (typeof types === "string" && !types.endsWith(".d.ts")) {
      problems.push(`export "${key}": "types" must name a .d.ts file, not ${types}`);
    }
  }
  if (expected.subpaths !== undefined) {
    const exported = new Set(entries.map(([key]) => key).filter((key) => !isDataExport(key)));
    for (const subpath of expected.subpaths) {
      if (!exported.has(subpath)) problems.push(`missing export "${subpath}"`);
    }
    const wanted = new Set(expected.subpaths);
    for (const key of exported) if (!wanted.has(key)) problems.push(`unexpected export "${key}"`);
  }
  return problems;
}

/** Relative imports that lead to no file of the tarball, and bare ones that no dependency declares. */
function importProblems(tarball: Tarball): string[] {
  const { manifest, files } = tarball;
  const declared = new Set(
    ["dependencies", "peerDependencies", "optionalDependencies"].flatMap((f) =>
      Object.keys((manifest as Record<string, Record<string, string> | undefined>)[f] ?? {}),
    ),
  );
  const problems: string[] = [];
  for (const [path, content] of files) {
    if (!/\.(m?js|d\.ts)$/.test(path) || path.startsWith("src/")) continue;
    const text = content.toString("utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] as string;
      if (specifier.startsWith(".")) {
        const target = posix.normalize(posix.join(posix.dirname(path), specifier));
        const candidates = path.endsWith(".d.ts") ? [target, target.replace(/\.js$/, ".d.ts")] : [target];
        if (!candidates.some((c) => files.has(c))) problems.push(`${path} imports ${specifier}, not in the tarball`);
      } else if (!specifier.startsWith("node:") && !BUILTINS.has(specifier)) {
        const name = packageOf(specifier);
        if (name !== manifest.name && !declared.has(name)) {
          problems.push(`${path} imports ${specifier}, but ${name} is not a dependency or peer dependency`);
        }
      }
    }
  }
  return problems;
}

/**
 * Relative links of the tarball's Markdown files (README, CHANGELOG) that break once the package is on the registry:
 * a link out of the package (`../../docs/…`: the registry and `node_modules` hold the package alone), or to a file
 * the tarball lacks.
 */
function linkProblems(tarball: Tarball): string[] {
  const { files } = tarball;
  const problems: string[] = [];
  for (const [path, content] of files) {
    if (!path.endsWith(".md")) continue;
    for (const { line, target } of markdownLinks(content.toString("utf8"))) {
      if (!isRelativeLink(target)) continue;
      const bare = target.replace(/[?#].*$/, "");
      if (bare === "") continue; // an anchor of the same page
      let decoded = bare;
      try {
        decoded = decodeURIComponent(bare);
      } catch {}
      const resolved = posix.normalize(posix.join(posix.dirname(path), decoded));
      const where = `${path}:${line} links to ${target}`;
      // A root-relative link ("/docs/a.md") names the root of the site showing it, never the package.
      if (decoded.startsWith("/") || resolved === ".." || resolved.startsWith("../")) {
        problems.push(`${where}, outside the package: it breaks on the registry (link to the repository instead)`);
      } else if (
        !files.has(resolved) &&
        ![...files.keys()].some((f) => f.startsWith(`${resolved.replace(/\/$/, "")}/`))
      ) {
        problems.push(`${where}, not in the tarball`);
      }
    }
  }
  return problems;
}

/**
 * What is wrong with a tarball as npm would install it: ranges only a workspace understands (`workspace:^`),
 * a missing or wildcard export, an export leading into internal/, files the exports or the code name but the
 * tarball lacks, imported packages no dependency declares, and README links that leave the package. Empty when it is fit to publish.
 *
 * @example
 * ```ts
 * tarballProblems(readTarball("toolware-packs.tgz"), { subpaths: ["./cache", "./redact"] }); // []
 * ```
 */

/** `./package.json` and other JSON files a package exports as data (`@toolware/policy/schema.json`): not entry points. */
export function isDataExport(key: string): boolean {
  return key.endsWith(".json");
}

export function tarballProblems(tarball: Tarball, expected: TarballExpectation = {}): string[] {
  const { manifest, files } = tarball;
  const problems: string[] = [];
  if (manifest.private === true) problems.push("package.json is private: npm will not publish it");
  for (const field of DEPENDENCY_FIELDS) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (LOCAL_PROTOCOL.test(range)) {
        problems.push(`${field}.${name} is "${range}": npm cannot install it (pack with pnpm pack)`);
      }
    }
  }
  for (const key of ["main", "types"] as const) {
    const path = manifest[key];
    if (path !== undefined && !files.has(posix.normalize(path)))
      problems.push(`"${key}" names ${path}, not in the tarball`);
  }
  const bins = typeof manifest.bin === "string" ? { [String(manifest.name)]: manifest.bin } : (manifest.bin ?? {});
  for (const [command, path] of Object.entries(bins)) {
    if (!files.has(posix.normalize(path))) problems.push(`bin "${command}" names ${path}, not in the tarball`);
  }
  if (!files.has("LICENSE")) problems.push("no LICENSE file");
  if (!files.has("README.md")) problems.push("no README.md");
  return [...problems, ...exportProblems(tarball, expected), ...importProblems(tarball), ...linkProblems(tarball)];
}
