/**
 * Packs every publishable package the way it will be published: `pnpm pack`, which builds it (prepack) and
 * turns `workspace:` ranges into real ones. Writes `<dest>/toolware-core-0.1.0.tgz` and a copy under a name
 * without the version (`toolware-core.tgz`), the one the install docs use.
 * Run: `npx tsx scripts/pack.ts [dest]` (default `.packs/`).
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type PublishablePackage, publishablePackages, ROOT, ScriptError, tarballName } from "./workspace.js";

/** One packed package. */
export interface PackedPackage extends PublishablePackage {
  /** The tarball, named with its version. */
  readonly tarball: string;
  /** The same tarball, named without the version. */
  readonly stable: string;
}

/** The pnpm the repository pins (`packageManager`), as an npx command. */
export function pnpmCommand(root = ROOT): string[] {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { packageManager?: string };
  return ["npx", "-y", manifest.packageManager ?? "pnpm"];
}

/**
 * The packages in an order where each comes after the workspace packages it depends on (any dependency field),
 * because packing builds a package against the built declarations of those (a fresh clone has no dist/ yet).
 */
export function buildOrder<P extends PublishablePackage>(packages: readonly P[]): P[] {
  const names = new Set(packages.map((p) => p.name));
  const needs = (p: P): string[] =>
    [p.manifest.dependencies, p.manifest.peerDependencies, p.manifest.optionalDependencies, p.manifest.devDependencies]
      .flatMap((deps) => Object.keys(deps ?? {}))
      .filter((name) => names.has(name) && name !== p.name);
  const ordered: P[] = [];
  const visiting = new Set<string>();
  const visit = (p: P): void => {
    if (ordered.includes(p)) return;
    if (visiting.has(p.name))
      throw new ScriptError(
        "TOOLWARE_PACK_CYCLE",
        `the workspace packages depend on each other in a cycle through ${p.name}`,
      );
    visiting.add(p.name);
    for (const name of needs(p)) visit(packages.find((q) => q.name === name) as P);
    visiting.delete(p.name);
    ordered.push(p);
  };
  for (const p of packages) visit(p);
  return ordered;
}

/**
 * Packs each package of {@link publishablePackages} into `dest`, emptied first, dependencies first.
 *
 * @example
 * ```ts
 * const packed = packAll(".packs"); // [{ name: "@toolware/core", tarball: ".packs/toolware-core-0.1.0.tgz", … }, …]
 * ```
 */
export function packAll(dest: string, root = ROOT): PackedPackage[] {
  const out = resolve(dest);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const [command, ...args] = pnpmCommand(root) as [string, ...string[]];
  return buildOrder(publishablePackages(root)).map((pkg) => {
    const run = spawnSync(command, [...args, "pack", "--pack-destination", out], { cwd: pkg.dir, encoding: "utf8" });
    const tarball = join(out, tarballName(pkg.name, pkg.version));
    if (run.status !== 0 || !existsSync(tarball)) {
      throw new ScriptError(
        "TOOLWARE_PACK_FAILED",
        `pnpm pack failed for ${pkg.name} (exit ${run.status}):\n${run.stdout}\n${run.stderr}`,
      );
    }
    const stable = join(out, tarballName(pkg.name));
    copyFileSync(tarball, stable);
    return { ...pkg, tarball, stable };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const p of packAll(process.argv[2] ?? join(ROOT, ".packs"))) console.log(`${p.name}@${p.version}: ${p.stable}`);
}
