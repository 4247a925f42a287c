import { defineTool, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { safePath } from "../index.js";
import { FAMILIES } from "./families.js";
import { CORPUS_ROOT, corpusFigures } from "./figures.js";
import { allReadings, escapes } from "./oracle.js";
import { loadCorpus, sources } from "./payloads.js";
import { renderReport } from "./report.js";

// The directory-traversal lists of PayloadsAllTheThings (swisskyrepo/PayloadsAllTheThings at the
// commit in sources.json: deep_traversal, directory_traversal, dotdotpwn and
// traversals-8-deep-exotic-encoding from "Directory Traversal/Intruder"), stored verbatim.

describe("the traversal corpus", () => {
  it("is the four lists named in sources.json, byte for byte", () => {
    const src = sources();
    expect(src.repo).toBe("https://github.com/swisskyrepo/PayloadsAllTheThings");
    expect(src.files.map((f) => f.path.split("/").at(-1))).toEqual([
      "deep_traversal.txt",
      "directory_traversal.txt",
      "dotdotpwn.txt",
      "traversals-8-deep-exotic-encoding.txt",
    ]);
    // loadCorpus recomputes each file's git blob hash and line count.
    const { payloads, problems } = loadCorpus();
    expect(problems).toEqual([]);
    expect(payloads).toHaveLength(src.files.reduce((n, f) => n + f.lines, 0));
    expect(payloads.some((p) => p.text.includes("{FILE}"))).toBe(false);
  });

  it("the reference decoder reads what the lists intend", () => {
    const escaping = [
      "..%u2215etc/passwd",
      "%uff0e%uff0e/etc/passwd",
      "..%uEFC8etc",
      "%c0%ae%c0%ae/etc",
      "%c0%2e%c0%2e%c0%5cetc",
      "%e0%80%ae%e0%80%ae/etc",
      "%fc%80%80%80%80%ae%fc%80%80%80%80%ae/etc",
      "%%32%65%%32%65/etc",
      "%252e%252e%255cetc",
      "..;/etc",
      ".?/etc",
      ".%00./etc",
      "../etc/passwd%00.png",
      "\\..\\WINDOWS\\win.ini",
      "....//etc",
    ];
    for (const p of escaping) expect(escapes(p), p).toBe(true);
    for (const p of ["a/b.txt", "a/../b", "0x2e0x2e/etc", "x%c0%fe/etc", "..a/b", "%2e/x"]) {
      expect(escapes(p), p).toBe(false);
    }
    expect(allReadings("%25u2215")).toContain("\u2215");
  });

  const figures = corpusFigures();

  it("safe-path refuses every payload that escapes the root under some reading", () => {
    expect(figures.missed.map((p) => `${p.list}:${p.line} ${p.text}`)).toEqual([]);
    expect(figures.all.refused).toBe(figures.all.escaping);
    for (const family of FAMILIES)
      expect(figures.byFamily[family].refused, family).toBe(figures.byFamily[family].escaping);
    // Pinned so that a change to the corpus or to the reference decoder shows here; update both
    // numbers (and the figures in docs/packs/validate.md) on purpose, never to make this pass.
    expect([figures.all.payloads, figures.all.escaping]).toEqual([22520, 14824]);
    expect(figures.byFamily["%uXXXX"].refused).toBe(2906);
  });

  it("reports the figures per family", () => {
    const report = renderReport(figures);
    expect(report).toContain("| %uXXXX | 3434 | 2906 | 2906 (100.0%) |");
    expect(report).toContain("| all | 22520 | 14824 | 14824 (100.0%) |");
    expect(report).toMatch(/let through: 0$/);
    const leaky = renderReport({ ...figures, missed: [{ list: "l.txt", line: 3, text: "..%u2215x" }] });
    expect(leaky).toMatch(/let through: 1\n {2}l\.txt:3 {2}"\.\.%u2215x"$/);
  });

  it("blocks them through the pack too (a sample of every family)", async () => {
    const readFile = defineTool({ name: "read_file", execute: () => "contents" });
    const hooks = new ToolHooks();
    hooks.use(safePath({ tools: "read_file", root: CORPUS_ROOT }));
    const sample = loadCorpus().payloads.filter((p, i) => i % 97 === 0 && escapes(p.text));
    expect(sample.length).toBeGreaterThan(100);
    for (const p of sample) {
      const out = await hooks.invoke(readFile, { path: p.text });
      expect(out.status, p.text).toBe("blocked");
      expect(out.reason).toMatch(/^invalid path in "path": /);
    }
  });
});
