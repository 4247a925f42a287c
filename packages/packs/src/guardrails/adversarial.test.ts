import { defineTool, normalizeName, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardrails } from "./index.js";

function tool(name: string) {
  return defineTool({ name, execute: () => "ran" });
}

// Disguises of "delete_file" that a deny list must still catch.
const DISGUISES = [
  "delete_file ",
  "  delete_file\t",
  "DELETE_FILE",
  "Delete File",
  "deleteFile",
  "DeleteFile",
  "delete_filE", // odd casing splits like camelCase under normalizeName ("delete_fil_e")
  "DeLeTe_FiLe",
  "deletefile",
  "delete-file",
  "delete__file",
  "delete.file",
  "ｄｅｌｅｔｅ＿ｆｉｌｅ", // fullwidth
  "𝐝𝐞𝐥𝐞𝐭𝐞_𝐟𝐢𝐥𝐞", // mathematical bold
  "dеlete_file", // Cyrillic е
  "DЕLЕTЕ_FILE", // Cyrillic Е
  "delete_fіle", // Ukrainian і
  "dеlеtе_fіlе",
  "délète_file", // accents are stripped by NFKD
  "delete\u200bfile", // zero-width space
  "delete\u00a0file", // no-break space
  "de\u0301lete_file", // combining acute accent
];

describe("guardrails: adversarial tool names", () => {
  it.each(DISGUISES)("denies %j", async (name) => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: ["delete_file"] }));
    const out = await hooks.invoke(tool(name), {});
    expect(out.status).toBe("blocked");
    expect(out.raw).toBeUndefined();
  });

  it("keeps allow lists strict: look-alike letters are not the allowed tool", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ allow: ["read_file"] }));
    for (const name of ["read_file", "Read File", "readFile", " read_file ", "ｒｅａｄ_ｆｉｌｅ"]) {
      expect((await hooks.invoke(tool(name), {})).status, name).toBe("ok");
    }
    for (const name of ["reаd_file" /* Cyrillic а */, "read_filе", "read_file_all", "read", "r_ead_file"]) {
      expect((await hooks.invoke(tool(name), {})).status, name).toBe("blocked");
    }
  });

  it("blocks names that normalise to nothing unless told otherwise", async () => {
    const strict = new ToolHooks();
    strict.use(guardrails({ deny: ["delete_file"] }));
    const out = await strict.invoke(tool("удалить"), {});
    expect(out.reason).toBe('the tool name "удалить" cannot be checked against the guardrails');
    expect((await strict.invoke(tool("🔥"), {})).status).toBe("blocked");
    const lenient = new ToolHooks();
    lenient.use(guardrails({ deny: ["delete_file"], unmatchableNames: "allow" }));
    expect((await lenient.invoke(tool("удалить"), {})).status).toBe("ok");
    const warnOnly = new ToolHooks();
    warnOnly.use(guardrails({ warn: ["x"], onWarn: () => {} }));
    expect((await warnOnly.invoke(tool("удалить"), {})).status).toBe("ok");
  });

  it("RegExp entries with g/y flags do not alternate between calls", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: [/^drop_/gy] }));
    for (let i = 0; i < 4; i++) expect((await hooks.invoke(tool("drop_table"), {})).status).toBe("blocked");
  });
});

const FULLWIDTH = (ch: string) => String.fromCodePoint(ch.codePointAt(0)! - 0x61 + 0xff41);
const CYRILLIC: Record<string, string> = { a: "а", e: "е", o: "о", p: "р", c: "с", x: "х", y: "у", i: "і" };

/** Renders a snake_case name in a random disguise, letter by letter and separator by separator. */
function disguise(words: string[]) {
  const letter = fc.constantFrom<"plain" | "upper" | "full" | "cyr">("plain", "upper", "full", "cyr");
  const sep = fc.constantFrom("_", " ", "-", "__", ".", "\u3000", "_\u200b");
  return fc
    .record({
      letters: fc.array(letter, { minLength: 64, maxLength: 64 }),
      seps: fc.array(sep, { minLength: 8, maxLength: 8 }),
      lead: fc.constantFrom("", " ", "\t", "\u00a0"),
      trail: fc.constantFrom("", " ", "  ", "\n", "\u00a0"),
    })
    .map(({ letters, seps, lead, trail }) => {
      let k = 0;
      const render = (w: string) =>
        [...w]
          .map((ch) => {
            const how = letters[k++ % letters.length];
            if (how === "upper") return ch.toUpperCase();
            if (how === "full") return FULLWIDTH(ch);
            if (how === "cyr") return CYRILLIC[ch] ?? ch;
            return ch;
          })
          .join("");
      return lead + words.map((w, i) => (i === 0 ? render(w) : seps[i % seps.length] + render(w))).join("") + trail;
    });
}

describe("guardrails: property tests", () => {
  const word = fc.stringMatching(/^[a-z]{2,8}$/);

  it("a denied name is blocked in any disguise (case, separators, fullwidth, look-alikes, padding)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(word, { minLength: 1, maxLength: 3 }).chain((words) => fc.tuple(fc.constant(words), disguise(words))),
        async ([words, name]) => {
          const hooks = new ToolHooks();
          hooks.use(guardrails({ deny: [words.join("_")] }));
          const out = await hooks.invoke(tool(name), {});
          expect(out.status).toBe("blocked");
        },
      ),
      { numRuns: 300 },
    );
  });

  it("an allow list admits a disguise only when it normalises to the entry and has no look-alike letter", async () => {
    await fc.assert(
      fc.asyncProperty(disguise(["read", "file"]), async (name) => {
        const hooks = new ToolHooks();
        hooks.use(guardrails({ allow: ["read_file"] }));
        const out = await hooks.invoke(tool(name), {});
        const swapped = Object.values(CYRILLIC).some((c) => name.includes(c));
        // Odd casing such as "read_filE" splits like camelCase ("read_fil_e"): strict lists refuse it.
        expect(out.status).toBe(!swapped && normalizeName(name) === "read_file" ? "ok" : "blocked");
      }),
      { numRuns: 300 },
    );
  });

  it("an allow list admits exactly the names core's normalizeName maps to an entry", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ allow: ["read_file"] }));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }),
          fc.constantFrom("read_file", "ReadFile"),
        ),
        async (name) => {
          // Names of only blanks and separators ("!", "_ -") are refused by defineTool itself.
          fc.pre(/[\p{L}\p{N}\p{S}]/u.test(name));
          const out = await hooks.invoke(tool(name), {});
          expect(out.status).toBe(normalizeName(name) === "read_file" ? "ok" : "blocked");
        },
      ),
      { numRuns: 300 },
    );
  });
});
