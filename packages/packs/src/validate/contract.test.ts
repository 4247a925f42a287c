// docs/packs/validate.md: safePath "keeps file paths inside a directory" and queryRules blocks a query that is too
// short. Both read the input once to check it; a getter in the input could answer the check with a harmless value
// and the tool with another, so a field held by a getter or setter is refused.
import { defineTool, ToolHooks } from "@toolware/core";
import { queryRules, safePath, validate } from "@toolware/packs/validate";
import { describe, expect, it } from "vitest";
import { z } from "zod";

function flipping<T>(first: T, later: T): () => T {
  let reads = 0;
  return () => (reads++ === 0 ? first : later);
}

describe("safePath: a path held by a getter", () => {
  const opened: unknown[] = [];
  const readFile = defineTool({
    name: "read_file",
    execute: (input: { path: unknown }) => {
      opened.push(input.path);
      return "contents";
    },
  });
  const hooks = new ToolHooks();
  hooks.use(safePath({ tools: "read_file", root: "/srv/files" }));

  it("a getter on the field is refused, whatever it answers", async () => {
    const input = {};
    Object.defineProperty(input, "path", { enumerable: true, get: flipping("notes/a.md", "../../etc/passwd") });
    const out = await hooks.invoke(readFile, input as { path: string });
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(/"path" is held by a getter or setter/);
    expect(opened).toEqual([]);
  });

  it("a getter on an element of a path list is refused", async () => {
    const list = ["notes/a.md", "notes/b.md"];
    Object.defineProperty(list, 1, { enumerable: true, get: flipping("notes/b.md", "/etc/shadow") });
    const out = await hooks.invoke(readFile, { path: list } as never);
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(/"path"\[1\] is held by a getter or setter/);
    expect(opened).toEqual([]);
  });

  it("a hole in a path list is no path", async () => {
    const list: string[] = [];
    list[1] = "notes/a.md";
    expect((await hooks.invoke(readFile, { path: list } as never)).status).toBe("blocked");
  });

  it("plain data passes as before", async () => {
    expect((await hooks.invoke(readFile, { path: "notes/a.md" })).status).toBe("ok");
    expect((await hooks.invoke(readFile, { path: ["notes/a.md", "b.md"] } as never)).status).toBe("ok");
  });
});

describe("queryRules: a query held by a getter", () => {
  it("is refused, so a getter cannot hand the tool a query shorter than minLength", async () => {
    const seen: unknown[] = [];
    const search = defineTool({
      name: "web_search",
      execute: (input: { query: unknown }) => {
        seen.push(input.query);
        return "results";
      },
    });
    const hooks = new ToolHooks();
    hooks.use(queryRules({ tools: "web_search", minLength: 3 }));
    const input = {};
    Object.defineProperty(input, "query", { enumerable: true, get: flipping("typescript", "") });
    const out = await hooks.invoke(search, input as { query: string });
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(/query is held by a getter or setter/);
    expect(seen).toEqual([]);
    expect((await hooks.invoke(search, { query: "typescript" })).status).toBe("ok");
  });
});

describe("validate: the schema's output replaces a getter in the input", () => {
  it("the tool gets the value the schema checked, not what a getter answers later", async () => {
    const seen: unknown[] = [];
    const transfer = defineTool({
      name: "transfer",
      execute: (input: { amount: unknown }) => {
        seen.push(input.amount);
        return "sent";
      },
    });
    const hooks = new ToolHooks();
    hooks.use(validate({ schemas: { transfer: z.object({ amount: z.number().max(100) }) } }));
    const input = {};
    let reads = 0;
    Object.defineProperty(input, "amount", {
      enumerable: true,
      configurable: true,
      get: () => (reads++ < 2 ? 50 : 1_000_000),
    });
    const out = await hooks.invoke(transfer, input as { amount: number });
    expect(out.status).toBe("ok");
    expect(seen).toEqual([50]);
  });
});
