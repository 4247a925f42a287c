import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/**
 * Where the compiled benchmark lives, and where the core source it measures comes from.
 *
 * @example
 * ```ts
 * const out = buildBench({ coreSrc: "/tmp/corecopy/src" });
 * // spawn `node <out.suites>/toolware.js`
 * ```
 */
export interface BuildOutput {
  /** Directory holding one compiled `<suite>.js` per suite. */
  readonly suites: string;
  /** The core source directory that was compiled. */
  readonly coreSrc: string;
}

export interface BuildOptions {
  /** Core sources to measure; default `packages/core/src` of this repository. */
  coreSrc?: string;
  /**
   * Where to write; default `bench/node_modules/.cache/toolware-bench` (ignored by git and Biome). Must sit
   * inside `bench/` so the peers resolve from its node_modules.
   */
  outDir?: string;
}

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Packages besides the core whose sources the suites import (`@toolware/packs/<pack>`, `@toolware/otel`,
 * `@toolware/redis`, `@toolware/ai-sdk`, `@toolware/policy`, `@toolware/cli`, `@toolware/mcp`, `@toolware/gateway`).
 */
const WORKSPACE_PACKAGES = ["packs", "otel", "redis", "ai-sdk", "policy", "cli", "mcp", "gateway"] as const;

function importPath(fromFile: string, target: string): string {
  const path = relative(dirname(fromFile), target);
  return path.startsWith(".") ? path : `./${path}`;
}

// Same emit as `tsc -p packages/core/tsconfig.build.json` (ES2022, ESM); only types are stripped.
const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  verbatimModuleSyntax: true,
  useDefineForClassFields: true,
};

function sources(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sources(path));
    else if (/\.ts$/.test(entry.name) && !/\.(test|test-d|d)\.ts$/.test(entry.name)) files.push(path);
  }
  return files;
}

function transpile(from: string, to: string, rewrite?: (js: string, outFile: string) => string): void {
  for (const file of sources(from)) {
    const outFile = join(to, relative(from, file)).replace(/\.ts$/, ".js");
    let js = ts.transpileModule(readFileSync(file, "utf8"), { compilerOptions, fileName: file }).outputText;
    if (rewrite !== undefined) js = rewrite(js, outFile);
    mkdirSync(dirname(outFile), { recursive: true });
    writeFileSync(outFile, js);
  }
}

/**
 * Compiles the bench and the core to plain JavaScript under `bench/node_modules/.cache/toolware-bench`.
 *
 * The suites must not run under tsx: tsx compiles with esbuild's `keepNames`,
 * which wraps every closure in `__name(fn, "…")` (an `Object.defineProperty`
 * per closure creation, ~0.4 µs for each closure a hook path makes per call),
 * and any registered loader hook sends each dynamic `import()` through a
 * worker thread, which slows the peers that import lazily per call. Plain
 * `node` on transpiled files measures what users run.
 *
 * @example
 * ```ts
 * const { suites } = buildBench();
 * ```
 */
export function buildBench(options: BuildOptions = {}): BuildOutput {
  const coreSrc = resolve(options.coreSrc ?? join(benchDir, "..", "packages", "core", "src"));
  const outDir = resolve(options.outDir ?? join(benchDir, "node_modules", ".cache", "toolware-bench"));
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  // Under node_modules Node looks for no package scope: say these files are ES modules.
  writeFileSync(join(outDir, "package.json"), '{ "type": "module" }\n');
  const coreOut = join(outDir, "core");
  transpile(coreSrc, coreOut);
  // The core's own dependencies (eventemitter3, koa-compose) resolve from its package.
  symlinkSync(join(coreSrc, "..", "node_modules"), join(coreOut, "node_modules"), "dir");
  // The other workspace packages a suite measures run on that same core: their imports of it are rewritten too.
  const toCore = (js: string, outFile: string): string =>
    js.replaceAll(
      /(from\s+|import\s*\(\s*)"@toolware\/core"/g,
      `$1"${importPath(outFile, join(coreOut, "index.js"))}"`,
    );
  // A package may use another (the Redis stores use the packs' helpers): every import of one is rewritten.
  const toWorkspace = (js: string, outFile: string): string =>
    toCore(js, outFile)
      .replaceAll(/(from\s+)"@toolware\/packs\/([\w-]+)"/g, (_m, from: string, pack: string) => {
        return `${from}"${importPath(outFile, join(outDir, "packs", pack, "index.js"))}"`;
      })
      .replaceAll(
        /(from\s+)"@toolware\/(otel|redis|ai-sdk|policy|cli|mcp|gateway)"/g,
        (_m, from: string, pkg: string) => {
          return `${from}"${importPath(outFile, join(outDir, pkg, "index.js"))}"`;
        },
      );
  for (const pkg of WORKSPACE_PACKAGES) {
    const src = join(benchDir, "..", "packages", pkg, "src");
    transpile(src, join(outDir, pkg), toWorkspace);
    symlinkSync(join(src, "..", "node_modules"), join(outDir, pkg, "node_modules"), "dir");
  }
  const benchOut = join(outDir, "bench");
  transpile(join(benchDir, "src"), benchOut, (js, outFile) =>
    // The Redis suite starts its server with the tests' helper, compiled with the package.
    toWorkspace(js, outFile).replaceAll(
      /(from\s+)"(?:\.\.\/)+packages\/redis\/src\/([\w-]+)\.js"/g,
      (_m, from: string, file: string) => `${from}"${importPath(outFile, join(outDir, "redis", `${file}.js`))}"`,
    ),
  );
  return { suites: join(benchOut, "suites"), coreSrc };
}
