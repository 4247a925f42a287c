import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { tarballProblems } from "./check-tarball.js";
import { type PackageManifest, readTarball, type Tarball } from "./tarball.js";

/** A small, healthy package in memory; `change` breaks it. */
function tarball(change: (m: Record<string, unknown>, files: Map<string, Buffer>) => void = () => {}): Tarball {
  const manifest: Record<string, unknown> = {
    name: "@toolware/packs",
    version: "0.1.0",
    exports: {
      "./cache": { types: "./dist/cache/index.d.ts", default: "./dist/cache/index.js" },
      "./package.json": "./package.json",
    },
    dependencies: { "@standard-schema/spec": "1.1.0" },
    peerDependencies: { "@toolware/core": "^0.1.0" },
  };
  const files = new Map<string, Buffer>([
    ["LICENSE", Buffer.from("MIT")],
    ["README.md", Buffer.from("# packs")],
    ["package.json", Buffer.from("{}")],
    [
      "dist/cache/index.js",
      Buffer.from('import { definePack } from "@toolware/core";\nimport { a } from "./store.js";\n'),
    ],
    ["dist/cache/store.js", Buffer.from('import { setTimeout } from "node:timers";\nexport const a = 1;\n')],
    ["dist/cache/index.d.ts", Buffer.from('import type { StandardSchemaV1 } from "@standard-schema/spec";\n')],
  ]);
  change(manifest, files);
  return { manifest: manifest as PackageManifest, files };
}

describe("tarballProblems", () => {
  it("passes a healthy package", () => {
    expect(tarballProblems(tarball(), { subpaths: ["./cache"] })).toEqual([]);
  });

  it("fails on any workspace-only range in any dependency field", () => {
    const fields = ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...fields),
        fc.constantFrom("workspace:", "link:", "file:", "portal:", "catalog:"),
        fc.string({ maxLength: 8 }),
        (field, protocol, rest) => {
          const range = `${protocol}${rest}`;
          const problems = tarballProblems(
            tarball((m) => {
              m[field] = { ...(m[field] as object), "@toolware/core": range };
            }),
          );
          expect(problems).toContain(
            `${field}.@toolware/core is "${range}": npm cannot install it (pack with pnpm pack)`,
          );
        },
      ),
    );
  });

  it("fails on a missing export, a file the exports or the code name but the tarball lacks, and a missing LICENSE", () => {
    expect(tarballProblems(tarball(), { subpaths: ["./cache", "./redact"] })).toEqual(['missing export "./redact"']);
    const problems = tarballProblems(
      tarball((m, files) => {
        files.delete("dist/cache/store.js");
        files.delete("LICENSE");
        m.main = "./dist/index.js";
        m.bin = { toolware: "./bin/toolware.js" };
      }),
    );
    expect(problems).toEqual([
      '"main" names ./dist/index.js, not in the tarball',
      'bin "toolware" names ./bin/toolware.js, not in the tarball',
      "no LICENSE file",
      "dist/cache/index.js imports ./store.js, not in the tarball",
    ]);
  });

  it("fails on an export without types, into internal/, or to a missing file, and on a private manifest", () => {
    const problems = tarballProblems(
      tarball((m) => {
        m.private = true;
        m.exports = { "./x": { default: "./dist/internal/x.js" }, "./y": { types: "./dist/y.js", import: "./y.js" } };
      }),
    );
    expect(problems).toEqual([
      "package.json is private: npm will not publish it",
      'export "./x" leads into internal/ (./dist/internal/x.js)',
      'export "./x" points at ./dist/internal/x.js, not in the tarball',
      'export "./x" has no "types" condition',
      'export "./y" points at ./dist/y.js, not in the tarball',
      'export "./y" points at ./y.js, not in the tarball',
      'export "./y": "types" must name a .d.ts file, not ./dist/y.js',
    ]);
    expect(tarballProblems(tarball((m) => delete m.exports))).toEqual([
      "package.json has no `exports` map: every entry point must be listed",
    ]);
  });

  it("fails on a package the code imports but no dependency declares", () => {
    const problems = tarballProblems(
      tarball((m) => {
        m.peerDependencies = {};
      }),
    );
    expect(problems).toEqual([
      "dist/cache/index.js imports @toolware/core, but @toolware/core is not a dependency or peer dependency",
    ]);
  });
});

describe("tarballProblems on the links of the packed Markdown", () => {
  const readme = (text: string, extra: Record<string, string> = {}) =>
    tarball((_m, files) => {
      files.set("README.md", Buffer.from(text));
      for (const [path, content] of Object.entries(extra)) files.set(path, Buffer.from(content));
    });

  it("passes links to the web, to files of the package and to the page's own headings", () => {
    const text = [
      "# packs",
      "[guide](https://github.com/toolware/toolware/blob/main/docs/packs.md#cache), [mail](mailto:a@b.c), [up](#packs)",
      "[code](dist/cache/index.js), [changes](./CHANGELOG.md#010), [folder](dist/cache/), [npm](//npmjs.com/x)",
      "```md",
      "[inside a code block](../../docs/README.md)",
      "```",
      "and `[inline code](../x.md)`",
      "",
    ].join("\n");
    expect(tarballProblems(readme(text, { "CHANGELOG.md": "# 0.1.0\n" }), { subpaths: ["./cache"] })).toEqual([]);
  });

  it("fails on a relative link that leaves the package, in any Markdown file of it", () => {
    const problems = tarballProblems(
      readme("Every option: [docs/packs.md](../../docs/packs.md).\n\n[core]: ../core\n", {
        "docs/more.md": "![logo](../../logo.png) and [x](%2E%2E/%2E%2E/y.md), [up](../README.md)\n",
      }),
    );
    expect(problems).toEqual([
      "README.md:1 links to ../../docs/packs.md, outside the package: it breaks on the registry (link to the repository instead)",
      "README.md:3 links to ../core, outside the package: it breaks on the registry (link to the repository instead)",
      "docs/more.md:1 links to ../../logo.png, outside the package: it breaks on the registry (link to the repository instead)",
      "docs/more.md:1 links to %2E%2E/%2E%2E/y.md, outside the package: it breaks on the registry (link to the repository instead)",
    ]);
  });

  it("fails on a relative link to a file the tarball lacks", () => {
    expect(tarballProblems(readme("[tests](src/cache/index.test.ts) [api](/docs/api.md)\n"))).toEqual([
      "README.md:1 links to src/cache/index.test.ts, not in the tarball",
      "README.md:1 links to /docs/api.md, outside the package: it breaks on the registry (link to the repository instead)",
    ]);
  });
});

describe("readTarball", () => {
  const dir = mkdtempSync(join(tmpdir(), "read-tarball-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads what tar wrote, names longer than 100 bytes included", () => {
    const deep = `dist/${"a-rather-long-folder-name/".repeat(6)}index.js`;
    mkdirSync(join(dir, "package", deep, ".."), { recursive: true });
    writeFileSync(join(dir, "package/package.json"), '{ "name": "x", "version": "1.0.0" }');
    writeFileSync(join(dir, "package", deep), "export {};\n");
    // GNU tar's own long names, and pax headers as node-tar (pnpm pack) writes them.
    for (const format of ["gnu", "pax"]) {
      const file = join(dir, `x-${format}.tgz`);
      expect(spawnSync("tar", [`--format=${format}`, "-czf", file, "-C", dir, "package"]).status).toBe(0);
      const read = readTarball(file);
      expect(read.manifest.name).toBe("x");
      expect(read.files.get(deep)?.toString(), format).toBe("export {};\n");
      expect([...read.files.keys()].sort()).toEqual([deep, "package.json"]);
    }
  });

  it("refuses a tarball without a package.json, with a code", () => {
    mkdirSync(join(dir, "empty/package"), { recursive: true });
    writeFileSync(join(dir, "empty/package/README.md"), "#");
    const file = join(dir, "empty.tgz");
    expect(spawnSync("tar", ["czf", file, "-C", join(dir, "empty"), "package"]).status).toBe(0);
    expect(() => readTarball(file)).toThrow(/^TOOLWARE_TARBALL_NO_MANIFEST: /);
  });
});
