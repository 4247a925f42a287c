import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { anchorsOf, markdownLinks } from "../../scripts/check-doc-links.js";
import { tarballProblems } from "../../scripts/check-tarball.js";
import { readTarball } from "../../scripts/tarball.js";
import { ROOT, ScriptError } from "../../scripts/workspace.js";
import { run } from "./helpers.js";

const release = inject("release");
const scratch = mkdtempSync(join(release.work, "mutated-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const packs = release.packages.find((p) => p.name === "@toolware/packs");
if (packs === undefined) throw new ScriptError("TOOLWARE_RELEASE_SETUP", "@toolware/packs was not packed");

type Manifest = Record<string, unknown> & {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  exports: Record<string, unknown>;
};

/** A copy of the packs tarball with its manifest (and files) changed: what a broken release would ship. */
function mutated(name: string, change: (manifest: Manifest, dir: string) => void): string {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  expect(run("tar", ["xzf", packs?.tarball ?? "", "-C", dir], dir).status).toBe(0);
  const file = join(dir, "package/package.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
  change(manifest, join(dir, "package"));
  writeFileSync(file, JSON.stringify(manifest, null, 2));
  const tarball = join(scratch, `${name}.tgz`);
  expect(run("tar", ["czf", tarball, "-C", dir, "package"], dir).status).toBe(0);
  return tarball;
}

describe("the packed tarballs", () => {
  it("hold no workspace range, every exported file, the declared dependencies, a LICENSE and a README", () => {
    for (const pkg of release.packages) {
      expect(tarballProblems(readTarball(pkg.tarball), { subpaths: pkg.subpaths }), pkg.name).toEqual([]);
    }
  });

  it("publish real ranges for the core: the peer range of the packs is a semver range", () => {
    const manifest = readTarball(packs.tarball).manifest;
    const core = release.packages.find((p) => p.name === "@toolware/core");
    const coreVersion = readTarball(core?.tarball ?? "").manifest.version;
    expect(manifest.peerDependencies?.["@toolware/core"]).toBe(`^${coreVersion}`);
  });
});

describe("the packed READMEs", () => {
  it("link into the repository only to files and headings that exist there", () => {
    let checked = 0;
    for (const pkg of release.packages) {
      const { manifest, files } = readTarball(pkg.tarball);
      const repository = (manifest as { repository?: { url?: string } }).repository?.url ?? "";
      const base = repository.replace(/^git\+/, "").replace(/\.git$/, "");
      expect(base, pkg.name).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
      for (const { target } of markdownLinks(files.get("README.md")?.toString("utf8") ?? "")) {
        const inside = new RegExp(`^${base.replaceAll(".", "\\.")}/(?:blob|tree)/main/([^#]+)(?:#(.*))?$`).exec(target);
        if (inside === null) continue;
        checked++;
        const file = join(ROOT, inside[1] as string);
        expect(existsSync(file), `${pkg.name}: ${target}`).toBe(true);
        if (inside[2] !== undefined) expect(anchorsOf(readFileSync(file, "utf8")), target).toContain(inside[2]);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(release.packages.length);
  });
});

describe("the tarball check itself", () => {
  // npm 11 refuses both; for a dependency it exits 1 without saying why, for a peer with EUNSUPPORTEDPROTOCOL.
  function npmInstall(tarball: string, name: string) {
    const project = join(scratch, `npm-${name}`);
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), '{ "name": "refuses", "private": true }');
    const result = run("npm", ["install", tarball], project);
    return { ...result, installed: existsSync(join(project, "node_modules/@toolware/packs/package.json")) };
  }

  it("fails on a workspace:^ range in dependencies, and npm really cannot install that tarball", () => {
    const tarball = mutated("workspace-dependency", (m) => {
      m.dependencies = { ...m.dependencies, "@toolware/core": "workspace:^" };
    });
    expect(tarballProblems(readTarball(tarball), { subpaths: packs.subpaths })).toEqual([
      'dependencies.@toolware/core is "workspace:^": npm cannot install it (pack with pnpm pack)',
    ]);
    const install = npmInstall(tarball, "dependency");
    expect(install.status).not.toBe(0);
    expect(install.installed).toBe(false);
  });

  it("fails on a workspace:^ range in peerDependencies, which npm refuses too", () => {
    const tarball = mutated("workspace-peer", (m) => {
      m.peerDependencies = { "@toolware/core": "workspace:^" };
    });
    expect(tarballProblems(readTarball(tarball), { subpaths: packs.subpaths })).toEqual([
      'peerDependencies.@toolware/core is "workspace:^": npm cannot install it (pack with pnpm pack)',
    ]);
    const install = npmInstall(tarball, "peer");
    expect(install.status).not.toBe(0);
    expect(install.stdout + install.stderr).toMatch(/EUNSUPPORTEDPROTOCOL/);
    expect(install.installed).toBe(false);
  });

  it("fails when a pack's export is removed, or turned back into a wildcard", () => {
    const removed = mutated("no-cache-export", (m) => {
      delete m.exports["./cache"];
    });
    expect(tarballProblems(readTarball(removed), { subpaths: packs.subpaths })).toEqual(['missing export "./cache"']);
    const wildcard = mutated("wildcard", (m) => {
      m.exports = { "./*": { types: "./dist/*/index.d.ts", default: "./dist/*/index.js" } };
    });
    const problems = tarballProblems(readTarball(wildcard), { subpaths: packs.subpaths });
    expect(problems).toContain('export "./*" is a wildcard: list each subpath explicitly');
    expect(problems).toContain('missing export "./redact"');
  });

  it("fails on a README link that leaves the package, as the packed READMEs once had", () => {
    const broken = mutated("readme-link", (_m, dir) => {
      const readme = join(dir, "README.md");
      writeFileSync(readme, `${readFileSync(readme, "utf8")}\nEvery option: [docs/packs.md](../../docs/packs.md).\n`);
    });
    const problems = tarballProblems(readTarball(broken), { subpaths: packs.subpaths });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^README\.md:\d+ links to \.\.\/\.\.\/docs\/packs\.md, outside the package: it breaks on the registry/,
    );
  });

  it("fails on a missing file and on an export into internal/", () => {
    const missing = mutated("missing-file", (_m, dir) => {
      rmSync(join(dir, "dist/redact/engine.js"));
    });
    expect(tarballProblems(readTarball(missing), { subpaths: packs.subpaths })).toEqual([
      "dist/redact/index.js imports ./engine.js, not in the tarball",
    ]);
    const internal = mutated("internal-export", (m) => {
      m.exports["./internal/tool-match"] = {
        types: "./dist/internal/tool-match.d.ts",
        default: "./dist/internal/tool-match.js",
      };
    });
    expect(tarballProblems(readTarball(internal), { subpaths: packs.subpaths })).toEqual([
      'export "./internal/tool-match" makes internal/ reachable',
      'export "./internal/tool-match" leads into internal/ (./dist/internal/tool-match.d.ts)',
      'export "./internal/tool-match" leads into internal/ (./dist/internal/tool-match.js)',
      'unexpected export "./internal/tool-match"',
    ]);
  });
});
