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
import { enginesFloor, ensureNode } from "../../scripts/node-binaries.js";
import { packAll } from "../../scripts/pack.js";
import { packFolders, publishablePackages, ROOT, ScriptError, tarballName } from "../../scripts/workspace.js";
import { childEnv, installCommandFromDocs } from "./consumer-env.js";

/** What the release tests share: the tarballs and the project that installed them. */
export interface ReleaseContext {
  /** The folder laid out as the install docs say: `<work>/toolware/.packs/*.tgz` and `<work>/my-app`. */
  readonly work: string;
  readonly packsDir: string;
  readonly appDir: string;
  /** Each published package with its tarball and the subpaths it must export. */
  readonly packages: readonly { name: string; tarball: string; subpaths: string[] }[];
  /** The packs the browser and edge bundles hold. */
  readonly neutralPacks: readonly string[];
  /** The oldest Node the packages' engines allow, and its binary. */
  readonly floor: { readonly version: string; readonly node: string };
  /** The output of the install command of docs/overview.md. */
  readonly installLog: string;
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
  return name === "@toolware/packs" ? packFolders().map((pack) => `./${pack}`) : ["."];
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
  const packages = publishablePackages().map((pkg) => ({
    name: pkg.name,
    tarball: join(packsDir, tarballName(pkg.name)),
    subpaths: subpathsOf(pkg.name),
  }));

  cpSync(join(ROOT, "test/release/consumer"), appDir, { recursive: true });
  writeFileSync(join(appDir, ".npmrc"), "engine-strict=true\n");
  const neutralPacks = checkPacks().neutralPacks;
  writeEntries(appDir, packages, neutralPacks);

  // Exactly the install line the overview gives, run where it says (a project beside the clone).
  const install = installCommandFromDocs(readFileSync(join(ROOT, "docs/overview.md"), "utf8"));
  const installLog = run(install[0] as string, install.slice(1), appDir);
  const rootManifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  // A package the install line does not name yet (a new adapter) is installed from its tarball all the same.
  const extra = packages.map((p) => p.tarball).filter((t) => !install.some((word) => word.endsWith(`/${basename(t)}`)));
  if (extra.length > 0) run("npm", ["install", ...extra], appDir);
  run("npm", ["install", "--save-dev", `@types/node@${rootManifest.devDependencies["@types/node"]}`], appDir);

  const version = enginesFloor();
  project.provide("release", {
    work,
    packsDir,
    appDir,
    packages,
    neutralPacks,
    floor: { version, node: ensureNode(version) },
    installLog,
  });
  return () => {
    if (process.env.TOOLWARE_KEEP_RELEASE !== "1") rmSync(work, { recursive: true, force: true });
    else console.log(`release fixtures kept in ${work} (${basename(work)})`);
  };
}
