import { defineTool, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { queryRules } from "./index.js";

const received: Record<string, unknown>[] = [];
const search = defineTool({
  name: "web_search",
  execute: (input: Record<string, unknown>) => {
    received.push({ ...input });
    return "results";
  },
});
const other = defineTool({ name: "read_file", execute: () => "content" });

afterEach(() => {
  received.length = 0;
});

describe("queryRules: the seed's search-query check", () => {
  it("sanitises the query in place and blocks short ones", async () => {
    const hooks = new ToolHooks();
    hooks.use(queryRules({ tools: "web_search", minLength: 3, lowercase: true }));
    const input = { query: "  TypeScript Hooks \n" };
    expect((await hooks.invoke(search, input)).status).toBe("ok");
    expect(input.query).toBe("typescript hooks");
    const short = await hooks.invoke(search, { query: "  AI  " });
    expect(short.reason).toBe("query is too short (at least 3 characters, got 2)");
    expect(received).toEqual([{ query: "typescript hooks" }]);
  });

  it("does not count invisible characters, and counts astral characters once", async () => {
    const hooks = new ToolHooks();
    hooks.use(queryRules({ tools: "web_search", minLength: 3, maxLength: 4 }));
    expect((await hooks.invoke(search, { query: "\u200b\u200b\u200b" })).status).toBe("blocked");
    expect((await hooks.invoke(search, { query: "\u200ba\u200b" })).reason).toBe(
      "query is too short (at least 3 characters, got 1)",
    );
    expect((await hooks.invoke(search, { query: "😀😀😀" })).status).toBe("ok");
    expect((await hooks.invoke(search, { query: "abcde" })).reason).toBe(
      "query is too long (at most 4 characters, got 5)",
    );
  });

  it("blocks missing and non-string queries, unless the field is optional", async () => {
    const hooks = new ToolHooks();
    hooks.use(queryRules({ tools: ["web_search"], field: "q" }));
    expect((await hooks.invoke(search, {})).reason).toBe("q is required");
    expect((await hooks.invoke(search, { q: ["a"] })).reason).toBe("q must be a string, got an array");
    expect((await hooks.invoke(search, { q: 42 })).reason).toBe("q must be a string, got number");
    // An input with a prototype of its own never reaches the pack: invoke refuses it.
    const inherited = Object.create({ q: "from the prototype" }) as Record<string, unknown>;
    await expect(hooks.invoke(search, inherited)).rejects.toMatchObject({ code: "TOOLWARE_INVALID_INPUT" });
    const optional = new ToolHooks();
    optional.use(queryRules({ tools: "web_search", field: "q", required: false }));
    expect((await optional.invoke(search, {})).status).toBe("ok");
  });

  it("only touches the chosen tools and keeps other options off by default", async () => {
    const hooks = new ToolHooks();
    hooks.use(queryRules({ tools: "web_search", collapseWhitespace: true }));
    expect((await hooks.invoke(other, {})).status).toBe("ok");
    const input = { query: " Big   Data " };
    await hooks.invoke(search, input);
    expect(input.query).toBe("Big Data");
    const untrimmed = new ToolHooks();
    untrimmed.use(queryRules({ tools: "web_search", trim: false }));
    const raw = { query: "  x " };
    await untrimmed.invoke(search, raw);
    expect(raw.query).toBe("  x ");
  });

  it("never lets a query shorter than minLength through once sanitised (property)", async () => {
    const hooks = new ToolHooks();
    hooks.use(queryRules({ tools: "web_search", minLength: 3, lowercase: true }));
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", maxLength: 8 }), async (query) => {
        received.length = 0;
        const out = await hooks.invoke(search, { query });
        if (out.status === "ok") {
          const seen = received[0]?.query as string;
          expect([...seen].length).toBeGreaterThanOrEqual(3);
          expect(seen).toBe(seen.toLowerCase());
          expect(seen).toBe(seen.trim());
        } else {
          expect(received).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    [null, /takes \{ tools/],
    [{}, /`tools` is required/],
    [{ tools: "x", field: "" }, /`field`/],
    [{ tools: "x", minLength: -1 }, /`minLength`/],
    [{ tools: "x", minLength: 1.5 }, /`minLength`/],
    [{ tools: "x", minLength: 5, maxLength: 2 }, /greater than/],
    [{ tools: "x", lowercase: "yes" }, /`lowercase` must be a boolean/],
    [{ tools: [] }, /the list is empty/],
    [{ tools: "x", min: 3 }, /unknown option `min`/],
  ])("rejects %j", (options, error) => {
    expect(() => queryRules(options as never)).toThrow(/^toolware\/validate: queryRules/);
    expect(() => queryRules(options as never)).toThrow(error);
  });
});
