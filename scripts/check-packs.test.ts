import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkPacks, NODE_MARKER } from "./check-packs.js";
import { ROOT } from "./workspace.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the parts of the repository the check reads, to break on purpose. */
function copy(): string {
  const root = mkdtempSync(join(tmpdir(), "check-packs-"));
  made.push(root);
  for (const part of ["packages/packs/src", "packages/packs/package.json", "packages/core/src", "docs/packs"]) {
    cpSync(join(ROOT, part), join(root, part), { recursive: true });
  }
  return root;
}

function editExports(root: string, edit: (exports: Record<string, unknown>) => void): void {
  const file = join(root, "packages/packs/package.json");
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { exports: Record<string, unknown> };
  edit(manifest.exports);
  writeFileSync(file, JSON.stringify(manifest));
}

/** A new pack folder, as someone adding a pack would write it. */
function addPack(root: string, name: string, source: string, test = true): void {
  const dir = join(root, "packages/packs/src", name);
  mkdirSync(dir);
  writeFileSync(join(dir, "index.ts"), source);
  if (test) writeFileSync(join(dir, "index.test.ts"), "export {};\n");
}

describe("checkPacks on this repository", () => {
  it("finds every pack exported, documented and tested, and which need Node", () => {
    const report = checkPacks();
    expect(report.problems).toEqual([]);
    expect(report.nodePacks).toEqual(expect.arrayContaining(["audit", "validate"]));
    expect(report.neutralPacks).toEqual(expect.arrayContaining(["cache", "guardrails", "redact", "approval"]));
    expect(report.neutralPacks.length + report.nodePacks.length).toBeGreaterThanOrEqual(13);
  });
});

describe("checkPacks on a broken copy", () => {
  it("demands the export, the page and the Node note of a new pack", () => {
    const root = copy();
    addPack(root, "ledger", 'import { appendFile } from "node:fs/promises";\nexport const ledger = appendFile;\n');
    expect(checkPacks(root).problems).toEqual([
      'pack ledger: no export "./ledger" in packages/packs/package.json',
      "pack ledger: no docs page docs/packs/ledger.md",
    ]);
    editExports(root, (exports) => {
      exports["./ledger"] = {
        "@toolware/source": "./src/ledger/index.ts",
        types: "./dist/ledger/index.d.ts",
        default: "./dist/ledger/index.js",
      };
    });
    writeFileSync(join(root, "docs/packs/ledger.md"), "# ledger\n");
    expect(checkPacks(root).problems).toEqual([
      `pack ledger imports node:fs/promises (packages/packs/src/ledger/index.ts) at load: docs/packs/ledger.md must say so ("${NODE_MARKER}")`,
    ]);
    writeFileSync(join(root, "docs/packs/ledger.md"), `# ledger\n\n${NODE_MARKER} It writes a file.\n`);
    const report = checkPacks(root);
    expect(report.problems).toEqual([]);
    expect(report.nodePacks).toContain("ledger");
  });

  it("fails when a pack's export is removed, mistyped or replaced by a wildcard", () => {
    const removed = copy();
    editExports(removed, (exports) => {
      delete exports["./cache"];
    });
    expect(checkPacks(removed).problems).toEqual(['pack cache: no export "./cache" in packages/packs/package.json']);

    const mistyped = copy();
    editExports(mistyped, (exports) => {
      exports["./redact"] = { types: "./dist/redact/index.d.ts", default: "./dist/redact/redact.js" };
    });
    expect(checkPacks(mistyped).problems[0]).toMatch(/^pack redact: export "\.\/redact" must be /);

    const wildcard = copy();
    editExports(wildcard, (exports) => {
      exports["./*"] = { types: "./dist/*/index.d.ts", default: "./dist/*/index.js" };
    });
    expect(checkPacks(wildcard).problems).toEqual(['export "./*" is a wildcard: list each pack explicitly']);
  });

  it("fails when internal/ becomes reachable or an export has no folder", () => {
    const root = copy();
    editExports(root, (exports) => {
      exports["./internal"] = { default: "./dist/internal/tool-match.js" };
      exports["./tools"] = { default: "./dist/internal/tool-match.js" };
      exports["./ghost"] = { default: "./dist/ghost/index.js" };
    });
    expect(checkPacks(root).problems).toEqual([
      'export "./internal" makes internal/ reachable',
      'export "./tools" makes internal/ reachable',
      'export "./ghost" has no pack folder',
    ]);
  });

  it("fails on a pack without tests, and on a Node note that no longer holds", () => {
    const root = copy();
    rmSync(join(root, "packages/packs/src/timeout/index.test.ts"));
    rmSync(join(root, "packages/packs/src/timeout/contract.test.ts"));
    const page = join(root, "docs/packs/redact.md");
    writeFileSync(page, `${readFileSync(page, "utf8")}\n${NODE_MARKER}\n`);
    expect(checkPacks(root).problems).toEqual([
      "pack redact loads in any runtime, but docs/packs/redact.md says it needs Node.js",
      "pack timeout: no *.test.ts in packages/packs/src/timeout",
    ]);
  });

  it("fails when the core imports a Node built-in at load, and not for type-only or lazy imports", () => {
    const root = copy();
    const index = join(root, "packages/core/src/index.ts");
    const original = readFileSync(index, "utf8");
    writeFileSync(
      join(root, "packages/core/src/lazy.ts"),
      [
        'import type { Readable } from "node:stream";',
        'import { type Writable } from "node:stream";',
        'export type { Duplex } from "node:stream";',
        "export type Streams = [Readable, Writable];",
        'export const later = () => import("node:fs");',
        "",
      ].join("\n"),
    );
    writeFileSync(index, `${original}export * from "./lazy.js";\n`);
    expect(checkPacks(root).problems).toEqual([]);
    writeFileSync(join(root, "packages/core/src/eager.ts"), 'import "node:readline";\nexport const x = 1;\n');
    writeFileSync(index, `${original}export { x } from "./eager.js";\n`);
    expect(checkPacks(root).problems).toEqual([
      "@toolware/core imports node:readline at load (packages/core/src/eager.ts): the core must load in any runtime",
    ]);
  });
});
