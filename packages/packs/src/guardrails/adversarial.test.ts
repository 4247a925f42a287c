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
  "dele\u00adte_file", // soft hyphen inside a word
  "del\u200cete_fi\u200dle", // zero-width non-joiner and joiner
  "delete\u2060_file", // word joiner
  "\ufeffdelete_file", // BOM
  "\u202edelete_file\u202c", // right-to-left override
  "\u2066delete_file\u2069", // isolates
  "ｄｅｌｅｔｅ_file", // fullwidth word
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
    for (const name of ["read_file", "Read File", "readFile", " read_file ", "READ-FILE"]) {
      expect((await hooks.invoke(tool(name), {})).status, name).toBe("ok");
    }
    for (const name of [
      "reаd_file", // Cyrillic а
      "read_filе",
      "read_file_all",
      "read",
      "r_ead_file",
      "ｒｅａｄ_ｆｉｌｅ", // fullwidth: NFKC changes it
      "réad_file", // not the same letters
    ]) {
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

  it("an allow list admits a disguise only when it is plain ASCII that normalises to the entry", async () => {
    await fc.assert(
      fc.asyncProperty(disguise(["read", "file"]), async (name) => {
        const hooks = new ToolHooks();
        hooks.use(guardrails({ allow: ["read_file"] }));
        const out = await hooks.invoke(tool(name), {});
        // Every disguise outside ASCII (fullwidth, Cyrillic, ideographic or no-break spaces, zero-width
        // spaces) is refused; odd casing such as "read_filE" splits like camelCase ("read_fil_e").
        const plain = /^[\t\n\r\x20-\x7e]*$/.test(name);
        expect(out.status).toBe(plain && normalizeName(name) === "read_file" ? "ok" : "blocked");
      }),
      { numRuns: 300 },
    );
  });

  it("an allow list admits only names core's normalizeName maps to an entry, and of those only ASCII ones here", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ allow: ["read_file"] }));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }),
          fc.constantFrom("read_file", "ReadFile", "read\u200bfile", "ｒｅａｄ_file", "réad_file", "read·file"),
        ),
        async (name) => {
          // Names of only blanks and separators ("!", "_ -") are refused by defineTool itself.
          fc.pre(/[\p{L}\p{N}\p{S}]/u.test(name));
          const out = await hooks.invoke(tool(name), {});
          if (normalizeName(name) !== "read_file") expect(out.status).toBe("blocked");
          // A name that maps to the entry is admitted exactly when NFKC leaves it alone and nothing
          // but punctuation lies outside ASCII (no letter, mark, invisible or compatibility character).
          else {
            const odd = name.normalize("NFKC") !== name || /[^\p{P}\t\n\r\x20-\x7e]/u.test(name);
            expect(out.status).toBe(odd ? "blocked" : "ok");
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
