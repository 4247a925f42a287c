import { describe, expect, it } from "vitest";
import { ToolHooks } from "./index.js";
import { defineTool } from "./tool.js";

const echo = defineTool({ name: "echo", execute: () => "ran" });

describe("ctx.traceAs names the calling hook's trace entry for one call", () => {
  it("names a blocking, a proceeding (plain) and an after-hook's entry, and never the next hook's", async () => {
    const hooks = new ToolHooks();
    let n = 0;
    hooks.before(
      function dispatch(ctx) {
        n++;
        ctx.traceAs(n === 1 ? "rules:deny-first" : "rules:allow-rest");
        if (n === 1) ctx.block("first call");
      },
      { priority: 10 },
    );
    hooks.before(function plainNext() {});
    hooks.after(function post(ctx) {
      ctx.traceAs("post:named");
    });
    const blocked = await hooks.invoke(echo, {});
    expect(blocked.trace.map((e) => [e.hook, e.action])).toContainEqual(["rules:deny-first", "blocked"]);
    const ok = await hooks.invoke(echo, {});
    const names = ok.trace.map((e) => e.hook);
    expect(names).toEqual(expect.arrayContaining(["rules:allow-rest", "plainNext", "post:named"]));
    expect(names).not.toContain("dispatch");
    // The registered names are what explain() shows.
    expect(hooks.explain({ toolName: "echo" }).map((h) => h.name)).toContain("dispatch");
  });

  it("names an async hook's entry, and refuses a name that is not a short string", async () => {
    const hooks = new ToolHooks();
    hooks.before(async function later(ctx) {
      ctx.traceAs("later:named");
      await Promise.resolve();
    });
    expect((await hooks.invoke(echo, {})).trace[0]?.hook).toBe("later:named");
    for (const bad of ["", "x".repeat(201), 7, undefined]) {
      const h = new ToolHooks();
      h.before((ctx) => ctx.traceAs(bad as string));
      const out = await h.invoke(echo, {});
      expect(out.status).toBe("blocked");
      expect(String(out.trace[0]?.error)).toContain("ctx.traceAs()");
    }
  });
});
