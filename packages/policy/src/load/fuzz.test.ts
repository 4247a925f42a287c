// Hostile and random input: the loader either refuses with a PolicyLoadError or yields exactly what the file says.
import { mkdtemp, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toolwareCode } from "@toolware/core";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { checkPolicyObject, parsePolicyText, readPolicyFile } from "../index.js";
import { policyArb } from "./test-fixtures.js";

function outcome(f: () => unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: f() };
  } catch (error) {
    // Anything but the loader's own error is a crash.
    expect(toolwareCode(error)).toBe("TOOLWARE_POLICY_INVALID");
    return { ok: false };
  }
}

describe("random policies of the schema's shape", () => {
  it("load from YAML, JSON and objects to exactly the document they describe", () => {
    fc.assert(
      fc.property(policyArb, ({ raw, doc }) => {
        expect(parsePolicyText(stringify(raw), { file: "p.yaml" }).document).toEqual(doc);
        expect(parsePolicyText(JSON.stringify(raw, null, 1), { file: "p.json" }).document).toEqual(doc);
        expect(checkPolicyObject(raw).document).toEqual(doc);
      }),
      { numRuns: 150 },
    );
  });

  it("with one value replaced by anything, are refused or still read as the text says, never more permissive", () => {
    const anything = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom("allow", "deny", "approve", "__proto__", "", "1m", -1, 0, null, true),
    );
    fc.assert(
      fc.property(policyArb, fc.array(fc.nat()), anything, ({ raw }, steps, value) => {
        // Walk into the raw policy along `steps` and replace what is there.
        const copy = structuredClone(raw) as Record<string, unknown>;
        let node: Record<string, unknown> = copy;
        let key: string = Object.keys(copy)[(steps[0] ?? 0) % Object.keys(copy).length] as string;
        for (const step of steps.slice(1)) {
          const next = node[key];
          if (next === null || typeof next !== "object") break;
          const keys = Object.keys(next);
          if (keys.length === 0) break;
          node = next as Record<string, unknown>;
          key = keys[step % keys.length] as string;
        }
        node[key] = value;
        const text = JSON.stringify(copy);
        const result = outcome(() => parsePolicyText(text, { file: "p.json" }).document);
        if (!result.ok) return;
        // Accepted: every decision and default is the one written (durations aside, which are converted).
        const written = JSON.parse(text) as {
          default: unknown;
          mode?: unknown;
          rules: { decide?: unknown; mode?: unknown }[];
        };
        const doc = result.value as typeof written;
        expect(doc.default).toBe(written.default);
        expect(doc.mode).toBe(written.mode);
        expect(doc.rules.map((r) => [r.decide, r.mode])).toEqual(written.rules.map((r) => [r.decide, r.mode]));
      }),
      { numRuns: 300 },
    );
  });
});

describe("hostile text", () => {
  it("random strings and bytes never crash the loader", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: "binary", maxLength: 300 })), (text) => {
        outcome(() => parsePolicyText(text, { file: "p.yaml" }));
        outcome(() => parsePolicyText(text, { file: "p.json" }));
      }),
      { numRuns: 400 },
    );
  });

  it("YAML made of the syntax's own characters never crashes or hangs it", () => {
    const piece = fc.constantFrom(
      "version: 1\n",
      "default: deny\n",
      "rules:\n",
      "  - ",
      "name: a\n",
      "&x ",
      "*x",
      "[",
      "]",
      "{",
      "}",
      ": ",
      "- ",
      "\t",
      "---\n",
      "? ",
      "!!str ",
      "!foo ",
      "|\n",
      ">\n",
      "'",
      '"',
      "#",
      "\r\n",
      "\uFEFF",
      "<<: *x\n",
      "\n",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        outcome(() => parsePolicyText(pieces.join(""), { file: "p.yaml" }));
      }),
      { numRuns: 400 },
    );
  });

  it("deep nesting of every kind is refused, not a stack overflow", () => {
    for (const text of [
      `rules: ${"[".repeat(5000)}${"]".repeat(5000)}`,
      `rules: ${"{a: ".repeat(3000)}1${"}".repeat(3000)}`,
      Array.from({ length: 1400 }, (_, i) => `${" ".repeat(i)}a:`).join("\n"),
      Array.from({ length: 700 }, (_, i) => `${" ".repeat(i * 2)}- `).join("\n"),
    ]) {
      expect(outcome(() => parsePolicyText(text, { file: "p.yaml" })).ok).toBe(false);
    }
  });
});

describe("hostile objects in code", () => {
  it("getters that throw, proxies, cycles, symbols, class instances and functions are refused with a path", () => {
    const cyclic: Record<string, unknown> = { version: 1, default: "deny" };
    cyclic.rules = [cyclic];
    const throwing = {
      version: 1,
      default: "deny",
      get rules(): unknown[] {
        throw new Error("boom");
      },
    };
    const trap = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error("trap");
        },
      },
    );
    for (const value of [
      cyclic,
      throwing,
      trap,
      { version: 1, default: "deny", rules: [], [Symbol("x")]: 1 },
      { version: 1, default: "deny", rules: new Set() },
      { version: 1, default: () => "allow", rules: [] },
      { version: 1n, default: "deny", rules: [] },
      JSON.parse('{"version": 1, "default": "deny", "rules": [], "__proto__": {"mode": "shadow"}}'),
      Object.assign(Object.create({ mode: "shadow" }), { version: 1, default: "deny", rules: [] }),
      [],
      "version: 1",
      null,
    ]) {
      expect(outcome(() => checkPolicyObject(value)).ok).toBe(false);
    }
    const error = (() => {
      try {
        checkPolicyObject(cyclic);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toContain("<inline>: rules[0]: must be a rule, got a cycle (the object contains itself)");
  });

  it("reads `undefined` values as keys left out, as every toolware options object does", () => {
    expect(checkPolicyObject({ version: 1, default: "allow", mode: undefined, rules: [] }).document).toEqual({
      version: 1,
      default: "allow",
      rules: [],
    });
  });
});

describe("readPolicyFile", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "toolware-policy-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads YAML and JSON files by their extension", async () => {
    await writeFile(join(dir, "p.yaml"), "version: 1\ndefault: deny\nrules: []\n");
    await writeFile(join(dir, "p.json"), '{"version": 1, "default": "allow", "rules": []}');
    expect((await readPolicyFile(join(dir, "p.yaml"))).document.default).toBe("deny");
    const json = await readPolicyFile(join(dir, "p.json"));
    expect([json.document.default, json.file]).toEqual(["allow", join(dir, "p.json")]);
  });

  it("refuses a 50 MB file by its size, quickly, without reading it", async () => {
    const file = join(dir, "huge.yaml");
    await writeFile(file, "version: 1\n");
    await truncate(file, 50 * 1024 * 1024);
    const start = performance.now();
    const error = await readPolicyFile(file).catch((e: unknown) => e as Error);
    expect(performance.now() - start).toBeLessThan(2000);
    expect(toolwareCode(error)).toBe("TOOLWARE_POLICY_INVALID");
    expect((error as Error).message).toContain(`${file}:1:1: the file is 50.0 MiB`);
  });

  it("refuses bytes that are no UTF-8, and says when a file cannot be read at all", async () => {
    const file = join(dir, "bin.yaml");
    await writeFile(file, Buffer.from([0x76, 0x65, 0xff, 0xfe, 0x00, 0x80]));
    await expect(readPolicyFile(file)).rejects.toThrow(/not UTF-8 text/);
    await expect(readPolicyFile(join(dir, "missing.yaml"))).rejects.toMatchObject({
      code: "TOOLWARE_POLICY_UNREADABLE",
    });
    await expect(readPolicyFile(dir)).rejects.toMatchObject({ code: "TOOLWARE_POLICY_UNREADABLE" });
    await expect(readPolicyFile("" as string)).rejects.toMatchObject({ code: "TOOLWARE_INVALID_OPTION" });
  });
});
