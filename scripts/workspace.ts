import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PackageManifest } from "./tarball.js";

/** The repository's root folder. */
export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** A package of packages/* that is published (not `private`). */
export interface PublishablePackage {
  readonly name: string;
  readonly version: string;
  readonly dir: string;
  readonly manifest: PackageManifest;
}

/**
 * The packages that go to the registry: every packages/* folder whose package.json is not private.
 *
 * @example
 * ```ts
 * publishablePackages().map((p) => p.name); // ["@toolware/core", "@toolware/packs"]
 * ```
 */
export function publishablePackages(root = ROOT): PublishablePackage[] {
  const base = join(root, "packages");
  return readdirSync(base)
    .sort()
    .map((entry) => join(base, entry))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as PackageManifest }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({ name: String(manifest.name), version: String(manifest.version), dir, manifest }));
}

/** The pack folders of packages/packs/src: every folder but internal/, which holds what packs share. */
export function packFolders(root = ROOT): string[] {
  const src = join(root, "packages/packs/src");
  return readdirSync(src)
    .filter((entry) => entry !== "internal" && statSync(join(src, entry)).isDirectory())
    .sort();
}

/** The file name `pnpm pack` gives a package: `@toolware/core` 0.1.0 → `toolware-core-0.1.0.tgz`. */
export function tarballName(name: string, version?: string): string {
  const base = name.replace(/^@/, "").replace("/", "-");
  return version === undefined ? `${base}.tgz` : `${base}-${version}.tgz`;
}

/** An error of the repository's own tooling (pack, checks, gate), with a stable code like the library's errors. */
export class ScriptError extends Error {
  override name = "ScriptError";
  readonly code: `TOOLWARE_${string}`;
  constructor(code: `TOOLWARE_${string}`, message: string, options?: { cause?: unknown }) {
    super(`${code}: ${message}`, options);
    this.code = code;
  }
}
