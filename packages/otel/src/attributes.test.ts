import { ToolHooks, toolwareCode } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { otelTracing } from "./index.js";
import { memoryTracing, search } from "./test-fixtures.js";

describe("otelTracing's attributes option", () => {
  it("adds the attributes read when the call ends, after the hooks inside decided", async () => {
    const t = memoryTracing();
    const hooks = new ToolHooks();
    hooks.use(
      otelTracing({ tracer: t.tracer, attributes: (ctx) => ({ "app.blocked_by": ctx.blockReason ?? "none" }) }),
    );
    hooks.before(function gate(ctx) {
      if ((ctx.toolInput as { query: string }).query === "no") ctx.block("not today");
    });
    await hooks.invoke(search, { query: "yes" });
    await hooks.invoke(search, { query: "no" });
    expect(t.spans().map((s) => s.attributes["app.blocked_by"])).toEqual(["none", "not today"]);
  });

  it("ends the span and leaves the call unchanged when attributes throws, reporting TOOLWARE_OTEL_ATTRIBUTES_FAILED", async () => {
    const t = memoryTracing();
    const codes: string[] = [];
    const hooks = new ToolHooks({ onListenerError: (where, error) => codes.push(`${where}:${toolwareCode(error)}`) });
    hooks.use(
      otelTracing({
        tracer: t.tracer,
        attributes: () => {
          throw new Error("bad mapping");
        },
      }),
    );
    const out = await hooks.invoke(search, { query: "q" });
    expect(out.status).toBe("ok");
    expect(out.result).toBe("results for q");
    expect(t.only().attributes["gen_ai.tool.name"]).toBe("web_search");
    expect(codes).toEqual(["otel.attributes:TOOLWARE_OTEL_ATTRIBUTES_FAILED"]);
  });

  it("refuses an attributes option that is not a function", () => {
    for (const bad of [{ a: 1 }, "x", 1]) {
      expect(() => otelTracing({ attributes: bad as never })).toThrow(/`attributes` must be a function/);
    }
    expect(() => otelTracing({ atributes: () => ({}) } as never)).toThrow(/unknown option `atributes`/);
  });
});
