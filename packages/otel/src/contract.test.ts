import type { Span, Tracer } from "@opentelemetry/api";
import { defineTool, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { otelTracing } from "./index.js";
import { memoryTracing } from "./test-fixtures.js";

// A span whose every method throws: an exporter or SDK broken after the span began.
function brokenSpanTracer(): Tracer {
  const fail = () => {
    throw new Error("span broken");
  };
  const span = new Proxy({} as Span, { get: (_t, key) => (key === "then" ? undefined : fail) });
  return { startSpan: () => span, startActiveSpan: fail } as unknown as Tracer;
}
const brokenTracer = {
  startSpan: () => {
    throw new Error("tracer broken");
  },
  startActiveSpan: () => {
    throw new Error("tracer broken");
  },
} as unknown as Tracer;

function guarded(pack: ReturnType<typeof otelTracing>) {
  const ran: string[] = [];
  const hooks = new ToolHooks();
  hooks.use(pack);
  hooks.before((ctx) => {
    if (ctx.toolName === "drop_table") ctx.block("never");
  });
  const tool = (name: string) =>
    defineTool({
      name,
      execute: () => {
        ran.push(name);
        return `${name} done`;
      },
    });
  return { hooks, ran, tool };
}

describe("otelTracing: an observer that never changes a call or weakens a guard", () => {
  const packs = {
    "a tracer that throws": () => otelTracing({ tracer: brokenTracer }),
    "a span that throws": () => otelTracing({ tracer: brokenSpanTracer() }),
    "a callId option that throws": () =>
      otelTracing({
        tracer: memoryTracing().tracer,
        callId: () => {
          throw new Error("no id");
        },
      }),
  };
  for (const [what, make] of Object.entries(packs)) {
    it(`${what}: a block holds, an allowed call runs once with its result`, async () => {
      const { hooks, ran, tool } = guarded(make());
      const blocked = await hooks.invoke(tool("drop_table"), {});
      expect(blocked.status).toBe("blocked");
      const ok = await hooks.invoke(tool("read"), {});
      expect(ok.status).toBe("ok");
      expect(ok.result).toBe("read done");
      expect(ran).toEqual(["read"]);
    });
  }

  it("concurrent calls each get their own span and call id, whatever the ids", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.stringMatching(/^[a-z0-9_]{1,20}$/), { minLength: 1, maxLength: 6 }),
        async (ids) => {
          const tracing = memoryTracing();
          const hooks = new ToolHooks();
          hooks.use(otelTracing({ tracer: tracing.tracer }));
          const slow = defineTool({
            name: "slow",
            execute: async () => new Promise((r) => setTimeout(() => r("x"), 1)),
          });
          await Promise.all(ids.map((callId) => hooks.invoke(slow, {}, { callId })));
          const seen = tracing.spans().map((s) => s.attributes["gen_ai.tool.call.id"]);
          expect([...seen].sort()).toEqual([...ids].sort());
        },
      ),
      { numRuns: 15 },
    );
  });

  it("a callId option that returns no text falls back to toolware's id", async () => {
    for (const own of [undefined, "", 42, null]) {
      const tracing = memoryTracing();
      const hooks = new ToolHooks();
      hooks.use(otelTracing({ tracer: tracing.tracer, callId: () => own as string | undefined }));
      const out = await hooks.invoke(defineTool({ name: "t", execute: () => "x" }), {}, { callId: "c-1" });
      expect(tracing.only().attributes["gen_ai.tool.call.id"]).toBe(out.callId);
    }
  });
});
