import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { TestProject } from "vitest/node";
import { checkPacks } from "../../scripts/check-packs.js";
import { compareVersions, enginesFloors, ensureNode, floorOf } from "../../scripts/node-binaries.js";
import { packAll } from "../../scripts/pack.js";
import { packFolders, publishablePackages, ROOT, ScriptError, tarballName } from "../../scripts/workspace.js";
import { childEnv, installCommandFromDocs } from "./consumer-env.js";

/** What the release tests share: the tarballs and the project that installed them. */
export interface ReleaseContext {
  /** The folder laid out as the install docs say: `<work>/toolware/.packs/*.tgz` and `<work>/my-app`. */
  readonly work: string;
  readonly packsDir: string;
  readonly appDir: string;
  /**
   * Each published package: its tarball, the subpaths it must export, its engines floor, and whether it was
   * installed (not when its engines exclude the Node running the suite: npm runs with engine-strict).
   */
  readonly packages: readonly ReleasePackage[];
  /** The packs the browser and edge bundles hold. */
  readonly neutralPacks: readonly string[];
  /** Each engines floor this Node can install for, its binary, and the installed packages that floor allows. */
  readonly floors: readonly { readonly version: string; readonly node: string; readonly packages: string[] }[];
  /** The floor of the program (core and packs), for its run on the oldest Node it allows. */
  readonly floor: { readonly version: string; readonly node: string };
  /** The output of the install command of docs/overview.md. */
  readonly installLog: string;
}

/** One published package, as the release tests see it. */
export interface ReleasePackage {
  readonly name: string;
  readonly tarball: string;
  readonly subpaths: string[];
  readonly floor: string;
  readonly installed: boolean;
}

declare module "vitest" {
  export interface ProvidedContext {
    release: ReleaseContext;
  }
}

function run(command: string, args: readonly string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, env: childEnv(), encoding: "utf8" });
  const output = `${result.stdout}${result.stderr}`;
  if (result.status !== 0) {
    throw new ScriptError("TOOLWARE_RELEASE_SETUP", `${command} ${args.join(" ")} failed in ${cwd}:\n${output}`);
  }
  return output;
}

function subpathsOf(name: string): string[] {
  if (name === "@toolware/packs") return packFolders().map((pack) => `./${pack}`);
  // The inbox's server (Hono) is a subpath of its own, so an agent that only waits never loads it.
  if (name === "@toolware/inbox") return [".", "./server"];
  return ["."];
}

function writeEntries(appDir: string, packages: ReleaseContext["packages"], neutral: readonly string[]): void {
  const specifiers = packages.flatMap((p) => p.subpaths.map((s) => (s === "." ? p.name : `${p.name}/${s.slice(2)}`)));
  const all = specifiers.map((s, i) => `import * as m${i} from "${s}";`);
  writeFileSync(
    join(appDir, "src/all-entries.ts"),
    `${all.join("\n")}\n\nexport const modules = [${specifiers.map((_, i) => `m${i}`).join(", ")}];\n`,
  );
  const packs = neutral.map((pack, i) => `import * as p${i} from "@toolware/packs/${pack}";`);
  writeFileSync(
    join(appDir, "src/bundle-entry.ts"),
    [
      'import * as core from "@toolware/core";',
      ...packs,
      "",
      'export { runStack } from "./web-app.js";',
      "// How many exports each module has: each runtime-neutral pack must load, not just be bundled.",
      `export const loaded: Record<string, number> = { core: Object.keys(core).length, ${neutral
        .map((pack, i) => `${JSON.stringify(pack)}: Object.keys(p${i}).length`)
        .join(", ")} };`,
      "",
    ].join("\n"),
  );
}

/**
 * The optional peers whose types a published package's declarations import (`@anthropic-ai/claude-agent-sdk` for
 * `@toolware/claude`: optional so that the CLI, which uses that adapter at run time only, does not pull the SDK in).
 * A program that imports such a package has the peer, as its users do; the version is the one the package tests with.
 */
function optionalTypePeers(names: readonly string[]): string[] {
  return publishablePackages()
    .filter((pkg) => names.includes(pkg.name))
    .flatMap((pkg) => {
      const m = pkg.manifest as {
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
        devDependencies?: Record<string, string>;
      };
      const sources = readdirSync(join(pkg.dir, "src"), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".ts") && !/\.test(-d)?\.ts$|test-fixtures|test-utils|test-worker/.test(f))
        .map((f) => readFileSync(join(pkg.dir, "src", f), "utf8"));
      return (
        Object.entries(m.peerDependenciesMeta ?? {})
          // Our own packages are installed from their tarballs already.
          .filter(([peer]) => !peer.startsWith("@toolware/"))
          .filter(([peer, meta]) => meta.optional === true && sources.some((t) => t.includes(`from "${peer}"`)))
          .map(([peer]) => `${peer}@${m.devDependencies?.[peer] ?? "latest"}`)
      );
    });
}

export default function setup(project: TestProject): () => void {
  const work = mkdtempSync(join(tmpdir(), "toolware-release-"));
  const packsDir = join(work, "toolware/.packs");
  const appDir = join(work, "my-app");
  // The gate packs once (TOOLWARE_PACKS_DIR) for both Node versions; on its own the suite packs for itself.
  const given = process.env.TOOLWARE_PACKS_DIR;
  if (given === undefined || given === "") packAll(packsDir);
  else {
    mkdirSync(packsDir, { recursive: true });
    for (const file of readdirSync(given)) copyFileSync(join(given, file), join(packsDir, file));
  }
  const here = process.versions.node;
  const packages: ReleasePackage[] = publishablePackages().map((pkg) => ({
    name: pkg.name,
    tarball: join(packsDir, tarballName(pkg.name)),
    subpaths: subpathsOf(pkg.name),
    floor: floorOf(pkg),
    installed: compareVersions(floorOf(pkg), here) <= 0,
  }));
  const installed = packages.filter((p) => p.installed);

  cpSync(join(ROOT, "test/release/consumer"), appDir, { recursive: true });
  writeFileSync(join(appDir, ".npmrc"), "engine-strict=true\n");
  const neutralPacks = checkPacks().neutralPacks;
  writeEntries(appDir, installed, neutralPacks);

  // Exactly the install line the overview gives, run where it says (a project beside the clone).
  const install = installCommandFromDocs(readFileSync(join(ROOT, "docs/overview.md"), "utf8"));
  const installLog = run(install[0] as string, install.slice(1), appDir);
  const rootManifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  // A package the install line does not name yet (a new adapter) is installed from its tarball all the same.
  const extra = installed
    .map((p) => p.tarball)
    .filter((t) => !install.some((word) => word.endsWith(`/${basename(t)}`)));
  if (extra.length > 0) run("npm", ["install", ...extra], appDir);
  const peers = optionalTypePeers(installed.map((p) => p.name));
  // As that package's users have it (with --omit=optional npm would also strip other packages' platform binaries).
  // Saved in the app's package.json: a later npm install would prune an unsaved package as extraneous.
  if (peers.length > 0) run("npm", ["install", ...peers], appDir);
  run("npm", ["install", "--save-dev", `@types/node@${rootManifest.devDependencies["@types/node"]}`], appDir);

  const floors = enginesFloors()
    .filter((f) => compareVersions(f.version, here) <= 0)
    .map((f) => ({
      version: f.version,
      node: ensureNode(f.version),
      packages: installed.filter((p) => compareVersions(p.floor, f.version) <= 0).map((p) => p.name),
    }));
  const program = packages.filter((p) => p.name === "@toolware/core" || p.name === "@toolware/packs");
  const version =
    program
      .map((p) => p.floor)
      .sort(compareVersions)
      .at(-1) ?? here;
  project.provide("release", {
    work,
    packsDir,
    appDir,
    packages,
    neutralPacks,
    floors,
    floor: { version, node: ensureNode(version) },
    installLog,
  });
  return () => {
    if (process.env.TOOLWARE_KEEP_RELEASE !== "1") rmSync(work, { recursive: true, force: true });
    else console.log(`release fixtures kept in ${work} (${basename(work)})`);
  };
}
