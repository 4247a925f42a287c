import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { adapterFolders, checkAdapterImports, exportedNames } from "./check-adapter-imports.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function write(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

const manifest = (name: string, exports: string[]) =>
  JSON.stringify({ name, exports: Object.fromEntries(exports.map((e) => [e, `./dist/${e}.js`])) });

/** A workspace in miniature: a core whose index mixes named lists and `export *`, packs, and one adapter. */
function workspace(adapterSource: string): string {
  const root = mkdtempSync(join(tmpdir(), "adapter-imports-"));
  made.push(root);
  write(root, "packages/core/package.json", manifest("@toolware/core", ["."]));
  write(
    root,
    "packages/core/src/index.ts",
    'export { ToolHooks, type Tool } from "./hooks.js";\nexport * from "./errors.js";\n',
  );
  write(
    root,
    "packages/core/src/hooks.ts",
    "export class ToolHooks {}\nexport interface Tool { name: string }\nexport const secret = 1;\n",
  );
  write(
    root,
    "packages/core/src/errors.ts",
    "export class ToolwareError extends Error {}\nexport interface ToolCallState {}\n",
  );
  write(root, "packages/packs/package.json", manifest("@toolware/packs", ["./cache", "./package.json"]));
  write(root, "packages/kit/package.json", manifest("@toolware/kit", ["."]));
  write(root, "packages/kit/src/index.ts", adapterSource);
  return root;
}

describe("checkAdapterImports on this repository", () => {
  it("finds every adapter using the core through its index only", () => {
    const report = checkAdapterImports();
    expect(report.problems).toEqual([]);
    expect(report.adapters).toEqual(
      expect.arrayContaining(["ai-sdk", "mcp", "langchain", "openai-agents", "redis", "otel"]),
    );
    expect(report.adapters).not.toContain("core");
    expect(report.adapters).not.toContain("packs");
    expect(report.coreExports).toBeGreaterThan(20);
  });
});

describe("checkAdapterImports on a small workspace", () => {
  it("accepts names the index exports, directly or through export *, and public subpaths", () => {
    const root = workspace(
      [
        'import { ToolHooks, type Tool, ToolwareError } from "@toolware/core";',
        'import type * as core from "@toolware/core";',
        'import { cache } from "@toolware/packs/cache";',
        'import { local } from "./local.js";',
        'declare module "@toolware/core" { interface ToolCallState { kit?: boolean } }',
        "export type T = core.Tool | Tool;",
        "export const all = [ToolHooks, ToolwareError, cache, local];",
        "",
      ].join("\n"),
    );
    write(root, "packages/kit/src/local.ts", "export const local = 1;\n");
    expect(checkAdapterImports(root)).toEqual({ problems: [], adapters: ["kit"], coreExports: 4 });
  });

  it("refuses a deep or relative path into another package, and a subpath nobody exports", () => {
    const root = workspace(
      [
        'import { secret } from "../../core/src/hooks.js";',
        'import { ToolHooks } from "@toolware/core/src/index.js";',
        'export { cacheStore } from "@toolware/packs/cache/store.js";',
        'export const later = () => import("../../packs/src/cache/index.js");',
        "export const all = [secret, ToolHooks];",
        "",
      ].join("\n"),
    );
    expect(checkAdapterImports(root).problems).toEqual([
      'packages/kit/src/index.ts:1: "../../core/src/hooks.js" leaves packages/kit: import the package by its name',
      'packages/kit/src/index.ts:2: "@toolware/core/src/index.js" is not an entry point of @toolware/core (it exports .)',
      'packages/kit/src/index.ts:3: "@toolware/packs/cache/store.js" is not an entry point of @toolware/packs (it exports ./cache, ./package.json)',
      'packages/kit/src/index.ts:4: "../../packs/src/cache/index.js" leaves packages/kit: import the package by its name',
    ]);
  });

  it("refuses a name the core's index does not export, however it is reached", () => {
    const root = workspace(
      [
        'import { secret, ToolHooks as Hooks } from "@toolware/core";',
        'import * as core from "@toolware/core";',
        'import toolware from "@toolware/core";',
        'export { secret as leaked } from "@toolware/core";',
        'export type Hidden = import("@toolware/core").Internal;',
        'declare module "@toolware/core" { interface RunState { x?: 1 } }',
        "export const all = [secret, Hooks, core.secret, core.ToolHooks, toolware];",
        "",
      ].join("\n"),
    );
    expect(checkAdapterImports(root).problems).toEqual([
      "packages/kit/src/index.ts:1: @toolware/core does not export `secret` (not in its index.ts)",
      "packages/kit/src/index.ts:3: @toolware/core has no default export",
      "packages/kit/src/index.ts:4: @toolware/core does not export `secret` (not in its index.ts)",
      "packages/kit/src/index.ts:5: @toolware/core does not export `Internal` (not in its index.ts)",
      "packages/kit/src/index.ts:6: @toolware/core does not export `RunState` (not in its index.ts)",
      "packages/kit/src/index.ts:7: @toolware/core does not export `secret` (not in its index.ts)",
    ]);
  });

  it("reads the export list from the core's index when it runs", () => {
    const root = workspace('import { secret } from "@toolware/core";\nexport const s = secret;\n');
    expect(checkAdapterImports(root).problems).toHaveLength(1);
    write(root, "packages/core/src/index.ts", 'export { secret, ToolHooks } from "./hooks.js";\n');
    expect(exportedNames(join(root, "packages/core/src/index.ts"))).toEqual(new Set(["secret", "ToolHooks"]));
    expect(checkAdapterImports(root).problems).toEqual([]);
  });

  it("checks every packages/* folder but core and packs", () => {
    const root = workspace("export {};\n");
    write(root, "packages/other/package.json", manifest("@toolware/other", ["."]));
    mkdirSync(join(root, "packages/no-manifest"));
    expect(adapterFolders(root)).toEqual(["kit", "other"]);
  });
});
