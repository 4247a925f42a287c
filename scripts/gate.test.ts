import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gateSteps, runGate, summary } from "./gate.js";
import { compareVersions, enginesFloors } from "./node-binaries.js";
import { buildOrder } from "./pack.js";

describe("runGate", () => {
  it("runs every step, reports each failure, and does not run a step whose need failed", () => {
    const ran: string[] = [];
    const results = runGate([
      { name: "a", run: () => void ran.push("a") },
      {
        name: "b",
        run: () => {
          ran.push("b");
          throw new Error("exit 1");
        },
      },
      { name: "c", run: () => void ran.push("c"), needs: ["b"] },
      { name: "d", run: () => void ran.push("d"), needs: ["a"] },
    ]);
    expect(ran).toEqual(["a", "b", "d"]);
    expect(results.map((r) => [r.name, r.ok, r.note])).toEqual([
      ["a", true, undefined],
      ["b", false, "exit 1"],
      ["c", false, "not run: b failed"],
      ["d", true, undefined],
    ]);
    const text = summary(results).split("\n");
    expect(text.at(-1)).toBe("gate: 2 passed, 2 failed");
    expect(text[1]).toMatch(/^✗ b +\d+\.\d s {2}exit 1$/);
  });

  it("holds every check the issue asks for, on both Node versions", () => {
    const names = gateSteps().map((s) => s.name);
    for (const wanted of [
      /^unit tests \+ coverage \(Node 2\d/,
      /^type check$/,
      /^lint$/,
      /^packs layout$/,
      /^adapter imports$/,
      /^pack$/,
      /^publint \(tarballs\)$/,
      /^attw \(tarballs\)$/,
      /^release suite \(Node 2\d\./,
      /^unit tests \(Node 22\./,
      /^release suite \(Node 22\./,
    ]) {
      expect(
        names.some((n) => wanted.test(n)),
        String(wanted),
      ).toBe(true);
    }
  });
});

describe("enginesFloors", () => {
  const root = mkdtempSync(join(tmpdir(), "engines-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (name: string, manifest: object) => {
    mkdirSync(join(root, "packages", name), { recursive: true });
    writeFileSync(join(root, "packages", name, "package.json"), JSON.stringify(manifest));
  };

  it("groups the published packages by their >=X.Y.Z floor, oldest first, private ones aside", () => {
    write("a", { name: "a", version: "1.0.0", engines: { node: ">=22.0.0" } });
    write("b", { name: "b", version: "1.0.0", engines: { node: ">= 20.16.0" } });
    write("c", { name: "c", version: "1.0.0", private: true, engines: { node: ">=24.0.0" } });
    write("e", { name: "e", version: "1.0.0", engines: { node: ">=20.16.0" } });
    expect(enginesFloors(root)).toEqual([
      { version: "20.16.0", packages: ["b", "e"] },
      { version: "22.0.0", packages: ["a"] },
    ]);
  });

  it("refuses an engines range it cannot read as a floor, with a code", () => {
    write("d", { name: "d", version: "1.0.0", engines: { node: "^20 || ^22" } });
    expect(() => enginesFloors(root)).toThrow(/^TOOLWARE_ENGINES_RANGE: d: engines.node must be ">=X.Y.Z"/);
  });

  it("orders versions numerically", () => {
    expect(compareVersions("20.9.0", "20.16.0")).toBeLessThan(0);
    expect(compareVersions("v22.23.5", "22.23.5")).toBe(0);
    expect(compareVersions("22.0.0", "20.20.2")).toBeGreaterThan(0);
  });
});

describe("buildOrder", () => {
  const pkg = (name: string, deps: Record<string, Record<string, string>> = {}) => ({
    name,
    version: "0.1.0",
    dir: name,
    manifest: { name, ...deps },
  });

  it("puts each package after the workspace packages it depends on, whatever the field", () => {
    const order = buildOrder([
      pkg("@toolware/ai-sdk", { peerDependencies: { "@toolware/core": "workspace:^", ai: "^6" } }),
      pkg("@toolware/redis", { peerDependencies: { "@toolware/packs": "workspace:^" } }),
      pkg("@toolware/packs", { devDependencies: { "@toolware/core": "workspace:*" } }),
      pkg("@toolware/core"),
    ]).map((p) => p.name);
    expect(order.indexOf("@toolware/core")).toBe(0);
    expect(order.indexOf("@toolware/packs")).toBeLessThan(order.indexOf("@toolware/redis"));
    expect(order).toHaveLength(4);
  });

  it("refuses a cycle, with a code", () => {
    const a = pkg("a", { dependencies: { b: "workspace:^" } });
    const b = pkg("b", { dependencies: { a: "workspace:^" } });
    expect(() => buildOrder([a, b])).toThrow(/^TOOLWARE_PACK_CYCLE: /);
  });
});
