// Allow lists admit only the canonical spelling of a name; deny and warn lists catch every variant.
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardrails } from "./index.js";

function tool(name: string, extra: { tags?: string[] } = {}) {
  return defineTool({ name, ...extra, execute: () => "ran" });
}

// Characters that render as nothing, and what the issue names them.
const INVISIBLE: Record<string, string> = {
  "zero-width space": "\u200b",
  "zero-width non-joiner": "\u200c",
  "zero-width joiner": "\u200d",
  "word joiner": "\u2060",
  BOM: "\ufeff",
  "soft hyphen": "\u00ad",
  "LRE embedding": "\u202a",
  "RLE embedding": "\u202b",
  "pop directional": "\u202c",
  "LRO override": "\u202d",
  "RLO override": "\u202e",
  "LRI isolate": "\u2066",
  "RLI isolate": "\u2067",
  "FSI isolate": "\u2068",
  "PDI isolate": "\u2069",
};

const FULLWIDTH = (s: string) =>
  [...s].map((ch) => (/[a-z]/.test(ch) ? String.fromCodePoint((ch.codePointAt(0) as number) + 0xfee0) : ch)).join("");

/** `name` with `mark` inserted at each of `positions` (clamped to the name). */
function insert(name: string, mark: string, positions: readonly number[]): string {
  const chars = [...name];
  for (const p of [...positions].sort((a, b) => b - a)) chars.splice(Math.min(p, chars.length), 0, mark);
  return chars.join("");
}

describe("guardrails: allow lists admit only the canonical spelling", () => {
  const hooks = new ToolHooks();
  const rails = guardrails({
    allow: ["read_file", "list_*"],
    deny: ["delete_file"],
    warn: ["send_email"],
    onWarn: () => {},
  });
  hooks.use(rails);

  it.each(Object.entries(INVISIBLE))("a name with a %s is not on the allow list", async (_what, mark) => {
    for (const name of [
      `read${mark}_file`,
      `${mark}read_file`,
      `read_file${mark}`,
      `re${mark}ad_file`,
      `list_${mark}dir`,
    ]) {
      const out = await hooks.invoke(tool(name), {});
      expect(out.status, JSON.stringify(name)).toBe("blocked");
      expect(out.raw).toBeUndefined();
      expect(rails.check({ toolName: name }).allowed).toBe(false);
    }
  });

  it("a name NFKC changes is not on the allow list (fullwidth, styled letters, ligatures, compatibility spaces)", async () => {
    for (const name of [
      FULLWIDTH("read_file"),
      "read_ｆｉｌｅ",
      "𝐫𝐞𝐚𝐝_file",
      "read_ﬁle",
      "read\u3000file",
      "read\u00a0file",
    ]) {
      expect((await hooks.invoke(tool(name), {})).status, JSON.stringify(name)).toBe("blocked");
    }
    expect((await hooks.invoke(tool("Read File"), {})).status).toBe("ok");
    expect((await hooks.invoke(tool("list_dir"), {})).status).toBe("ok");
  });

  it("the reason shows the hidden characters, so the agent and the logs see which name was refused", async () => {
    const out = await hooks.invoke(tool("read\u200bfile"), {});
    expect(out.reason).toBe(
      "read\\u{200b}file is not on the allow list (allow lists admit only the canonical spelling: no invisible, fullwidth or other compatibility characters)",
    );
    expect((await hooks.invoke(tool("write_file"), {})).reason).toBe("write_file is not on the allow list");
  });

  it("deny and warn lists still match every variant", async () => {
    const warned: string[] = [];
    const watch = new ToolHooks();
    watch.use(
      guardrails({
        deny: ["delete_file", /^drop_table$/],
        warn: ["send_email"],
        onWarn: (w) => warned.push(w.toolName),
      }),
    );
    for (const mark of [...Object.values(INVISIBLE), "\u00a0", "\u3000"]) {
      expect((await watch.invoke(tool(insert("delete_file", mark, [3])), {})).status).toBe("blocked");
      expect((await watch.invoke(tool(insert("send_email", mark, [4])), {})).status).toBe("ok");
    }
    // A RegExp sees the name with its invisible characters removed (a visible space stays a space).
    for (const mark of Object.values(INVISIBLE)) {
      const name = insert("drop_table", mark, [2, 7]);
      expect((await watch.invoke(tool(name), {})).status, JSON.stringify(name)).toBe("blocked");
    }
    for (const name of [FULLWIDTH("delete_file"), "ｄｒｏｐ_ｔａｂｌｅ"]) {
      expect((await watch.invoke(tool(name), {})).status, name).toBe("blocked");
    }
    expect(warned).toHaveLength(Object.values(INVISIBLE).length + 2);
  });

  it("property: inserting invisible characters anywhere never gets a name onto an allow list, nor off a deny list", async () => {
    const strict = new ToolHooks();
    strict.use(guardrails({ allow: ["read_file"] }));
    const loose = new ToolHooks();
    loose.use(guardrails({ deny: ["read_file"] }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("read_file", "Read File", "readFile"),
        fc.constantFrom(...Object.values(INVISIBLE)),
        fc.array(fc.nat({ max: 10 }), { minLength: 1, maxLength: 3 }),
        async (name, mark, positions) => {
          const disguised = insert(name, mark, positions);
          expect((await strict.invoke(tool(disguised), {})).status).toBe("blocked");
          expect((await loose.invoke(tool(disguised), {})).status).toBe("blocked");
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a role's and a rule's allow lists are strict too, and so are tags on an allow list", async () => {
    const junior = new Agent({ role: "junior" });
    const roles = new ToolHooks();
    roles.use(
      guardrails({
        byRole: { junior: { allow: ["read_file"] } },
        rules: [{ when: () => true, allow: ["read_file", "search", { tag: "read_only" }] }],
      }),
    );
    expect((await roles.invoke(tool("read_file"), {}, { agent: junior })).status).toBe("ok");
    expect((await roles.invoke(tool("read\u200dfile"), {}, { agent: junior })).status).toBe("blocked");
    expect((await roles.invoke(tool("ｓｅａｒｃｈ"), {})).status).toBe("blocked");
    expect((await roles.invoke(tool("lookup", { tags: ["read_only"] }), {})).status).toBe("ok");
    expect((await roles.invoke(tool("lookup", { tags: ["read\u200b_only"] }), {})).status).toBe("blocked");
    expect((await roles.invoke(tool("look\u200bup", { tags: ["read_only"] }), {})).status).toBe("blocked");
  });

  it("a RegExp on an allow list does not admit a disguised name either", async () => {
    const re = new ToolHooks();
    re.use(guardrails({ allow: [/^read_file$/] }));
    expect((await re.invoke(tool("read_file"), {})).status).toBe("ok");
    expect((await re.invoke(tool("Read File"), {})).status).toBe("ok");
    for (const name of ["read_\u200bfile", FULLWIDTH("read_file"), "réad_file"]) {
      expect((await re.invoke(tool(name), {})).status, name).toBe("blocked");
    }
  });

  it("an allow entry that is not spelled canonically is refused: it could never match", () => {
    expect(() => guardrails({ allow: ["read\u200bfile"] })).toThrow(
      /read\\\\u\{200b\}file" is not spelled canonically/,
    );
    expect(() => guardrails({ allow: [FULLWIDTH("read_file")] })).toThrow(TypeError);
    // Deny entries may be spelled any way: they are folded.
    expect(() => guardrails({ deny: [FULLWIDTH("drop_table")] })).not.toThrow();
  });
});
