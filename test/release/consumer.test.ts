import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { compareVersions, NODE_22 } from "../../scripts/node-binaries.js";
import { readTarball } from "../../scripts/tarball.js";
import { ROOT } from "../../scripts/workspace.js";
import { shellBlocks } from "./consumer-env.js";
import type { ReleasePackage } from "./global-setup.js";
import { expectStack, ownTypeErrors, run, type StackReport, tsc } from "./helpers.js";

// A project outside the workspace that installed the tarballs with plain npm, as docs/overview.md says.
const release = inject("release");
const app = release.appDir;

interface ImportReport {
  node: string;
  exported: Record<string, string[]>;
  loaded: Record<string, number | string>;
  refused: Record<string, string>;
}

const installed = release.packages.filter((p) => p.installed);

/**
 * Node 22.13 (the floor of @toolware/mastra) warns DEP0040 when any module, even one in node_modules, requires the
 * built-in `punycode`; later Nodes stay silent for node_modules. No toolware package requires it: a framework
 * dependency does. Every other line on stderr still fails the check.
 */
function withoutDependencyWarnings(stderr: string): string {
  return stderr
    .replace(/^\(node:\d+\) \[DEP0040\] DeprecationWarning: The `punycode` module is deprecated\..*\n/m, "")
    .replace(/^\(Use `node --trace-deprecation \.\.\.` to show where the warning was created\)\n/m, "");
}

function importAll(node: string, packages: readonly ReleasePackage[]): ImportReport {
  const expected = Object.fromEntries(packages.map((p) => [p.name, p.subpaths]));
  const result = run(node, ["import-all.mjs", JSON.stringify(expected)], app, node);
  expect(withoutDependencyWarnings(result.stderr)).toBe("");
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as ImportReport;
}

function expectEveryEntry(report: ImportReport, packages: readonly ReleasePackage[]): void {
  expect(Object.keys(report.exported)).toEqual(packages.map((p) => p.name));
  for (const pkg of packages) {
    expect(report.exported[pkg.name]).toEqual(pkg.subpaths);
    for (const subpath of pkg.subpaths) {
      const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
      expect(report.loaded[specifier], specifier).toBeTypeOf("number");
      expect(report.loaded[specifier] as number, specifier).toBeGreaterThan(0);
    }
  }
  expect(Object.keys(report.refused).length).toBeGreaterThanOrEqual(6);
  for (const [specifier, code] of Object.entries(report.refused)) {
    expect(code, specifier).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
  }
}

describe("the install docs", () => {
  it("install the tarballs that pack:tarballs writes, with plain npm", () => {
    const overview = readFileSync(join(ROOT, "docs/overview.md"), "utf8");
    const block = shellBlocks(overview).find((b) => b.includes("pack:tarballs")) ?? "";
    const scripts = (
      JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    expect(block).toMatch(/npx -y pnpm@12\.4\.2 install && npx -y pnpm@12\.4\.2 pack:tarballs/);
    expect(scripts["pack:tarballs"]).toBe("tsx scripts/pack.ts");
    const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    // The two the docs' line installs; packages it does not name yet are installed from their tarballs after it.
    expect(manifest.dependencies).toMatchObject({
      "@toolware/core": "file:../toolware/.packs/toolware-core.tgz",
      "@toolware/packs": "file:../toolware/.packs/toolware-packs.tgz",
    });
    expect(release.installLog).not.toMatch(/EBADENGINE|ERESOLVE|peer dep/i);
  });
});

describe("the ES module step of the install docs", () => {
  it("makes a new project an ES module project, without which the first import fails", () => {
    const overview = readFileSync(join(ROOT, "docs/overview.md"), "utf8");
    const block = shellBlocks(overview).find((b) => b.includes("pack:tarballs")) ?? "";
    const prefix = "mkdir -p ../my-app && cd ../my-app && ";
    const line = block.split("\n").find((l) => l.startsWith(prefix)) ?? "";
    const init = line
      .slice(prefix.length)
      .replace(/\s#.*$/, "")
      .trim();
    expect(init).toBe("npm init -y && npm pkg set type=module");
    // Inside my-app, so that @toolware/core resolves from its node_modules.
    const project = join(app, "esm-check");
    mkdirSync(project);
    writeFileSync(
      join(project, "main.js"),
      'import { ToolHooks } from "@toolware/core";\nconsole.log(typeof ToolHooks);\n',
    );
    expect(run("sh", ["-c", "npm init -y"], project).status).toBe(0);
    const commonjs = run(process.execPath, ["main.js"], project);
    expect(commonjs.status).not.toBe(0);
    expect(commonjs.stderr).toMatch(/SyntaxError: Cannot use import statement outside a module/);
    expect(run("sh", ["-c", init], project).status).toBe(0);
    expect(run(process.execPath, ["main.js"], project)).toMatchObject({ status: 0, stdout: "function\n" });
  });
});

describe("every entry point and subpath, in ESM", () => {
  it("loads on this Node, and nothing else is reachable", () => {
    const report = importAll(process.execPath, installed);
    expect(report.node).toBe(process.version);
    expectEveryEntry(report, installed);
  });

  it("loads on the oldest Node each package's engines allow", () => {
    expect(release.floors.length).toBeGreaterThan(0);
    for (const floor of release.floors) {
      const packages = installed.filter((p) => floor.packages.includes(p.name));
      const report = importAll(floor.node, packages);
      expect(report.node).toBe(`v${floor.version}`);
      expectEveryEntry(report, packages);
    }
  });

  it("leaves out only the packages whose engines exclude this Node, and none on Node 22", () => {
    for (const pkg of release.packages) {
      expect(pkg.installed, pkg.name).toBe(compareVersions(pkg.floor, process.versions.node) <= 0);
    }
    const program = release.packages.filter((p) => p.name === "@toolware/core" || p.name === "@toolware/packs");
    expect(program.map((p) => p.installed)).toEqual([true, true]);
    if (compareVersions(process.versions.node, NODE_22) >= 0) expect(installed).toEqual(release.packages);
  });
});

describe("the commands the packages install", () => {
  const cli = release.packages.find((p) => p.name === "@toolware/cli");
  const version = (JSON.parse(readFileSync(join(ROOT, "packages/cli/package.json"), "utf8")) as { version: string })
    .version;

  it("run from node_modules/.bin, on this Node and on the oldest the engines allow", () => {
    expect(cli?.installed).toBe(true);
    for (const node of [process.execPath, release.floor.node]) {
      const result = run("node_modules/.bin/toolware", ["--help"], app, node);
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(
        /^usage: toolware <command> \[options\]\n[\s\S]*\n {2}audit {2,}summarise an audit trail/,
      );
      expect(run("node_modules/.bin/toolware", ["--version"], app, node)).toEqual({
        status: 0,
        stdout: `${version}\n`,
        stderr: "",
      });
    }
  });

  it("toolware audit: a summary and exit 0 for a trail, exit 1 for a file with no record, exit 2 for --top 1e3", () => {
    const line = {
      v: 1,
      time: "2026-03-02T10:15:00.000Z",
      callId: "a",
      tool: "web_search",
      status: "ok",
      durationMs: 3,
    };
    writeFileSync(join(app, "audit.jsonl"), `${JSON.stringify(line)}\n`);
    writeFileSync(join(app, "other.log"), "GET / 200\n");
    const ok = run("node_modules/.bin/toolware", ["audit", "audit.jsonl"], app);
    expect([ok.status, ok.stderr]).toEqual([0, ""]);
    expect(ok.stdout).toMatch(/web_search\s+1 call\s+ok 1/);
    const none = run("node_modules/.bin/toolware", ["audit", "other.log"], app);
    expect([none.status, none.stdout]).toEqual([1, ""]);
    expect(none.stderr).toMatch(/^toolware: audit: other\.log holds no audit record/);
    const usage = run("node_modules/.bin/toolware", ["audit", "audit.jsonl", "--top", "1e3"], app);
    expect([usage.status, usage.stdout]).toEqual([2, ""]);
    expect(usage.stderr).toMatch(/--top takes a whole number of 0 or more, got "1e3"/);
  });

  it("only @toolware/cli ships a bin: two packages with one bin name would clash", () => {
    const bins = release.packages.flatMap((p) =>
      Object.keys(readTarball(p.tarball).manifest.bin ?? {}).map((b) => `${p.name}:${b}`),
    );
    expect(bins).toEqual(["@toolware/cli:toolware"]);
  });
});

describe("a program against the installed declarations", () => {
  // The node16 check also emits out/, which the run below executes.
  let node16: ReturnType<typeof tsc>;
  beforeAll(() => {
    node16 = tsc("tsconfig.node16.json", app);
  });

  it("type-checks with moduleResolution node16 (with Node's types) and bundler (with none)", () => {
    expect(ownTypeErrors(node16)).toEqual([]);
    const bundler = tsc("tsconfig.bundler.json", app);
    expect(ownTypeErrors(bundler)).toEqual([]);
    // Guards against a check that finds nothing: the program is there and was compiled.
    expect(existsSync(join(app, "out/node-app.js"))).toBe(true);
  });

  it("fails the type check on a wrong option or an import of internal/, so the check can fail", () => {
    const wrong = [
      'import { guardrails } from "@toolware/packs/guardrails";',
      'import { selectorToFilter } from "@toolware/packs/internal/tool-match";',
      "guardrails({ deny: 42 });",
      "selectorToFilter;",
      "",
    ].join("\n");
    writeFileSync(join(app, "src/wrong.ts"), wrong);
    const config = { extends: "./tsconfig.bundler.json", include: ["src/wrong.ts"] };
    writeFileSync(join(app, "tsconfig.wrong.json"), JSON.stringify(config));
    const result = tsc("tsconfig.wrong.json", app);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toMatch(/src\/wrong\.ts\(2,\d+\): error TS2307/);
    expect(result.stdout).toMatch(/src\/wrong\.ts\(3,\d+\): error TS2322/);
  });

  it("runs on this Node and on the oldest the engines allow: block, redaction, cache hit, fail-closed approval", () => {
    expect(ownTypeErrors(node16)).toEqual([]);
    for (const node of [process.execPath, release.floor.node]) {
      const result = run(node, ["out/node-app.js"], app, node);
      expect(result.stderr).toBe("");
      expect(result.status).toBe(0);
      const report = JSON.parse(result.stdout) as StackReport & { outside: [string, string]; inside: string };
      expectStack(report, /standard input is not a terminal/);
      expect(report.outside).toEqual(["blocked", 'invalid path in "path": parent-directory traversal (..)']);
      expect(report.inside).toBe("read notes.md");
    }
  });
});
