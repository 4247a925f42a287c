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
 * Packs each package of {@link publishablePackages} into `dest`, emptied first.
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
  return publishablePackages(root).map((pkg) => {
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
