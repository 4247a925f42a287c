// Parenting needs a real context manager, registered globally as an application would: this file owns that state.
import { type Context, type ContextManager, context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { defineTool, ToolHooks } from "@toolware/core";
import { afterEach, describe, expect, it } from "vitest";
import { otelTracing } from "./index.js";
import { memoryTracing, search } from "./test-fixtures.js";

/** The SDK's AsyncLocalStorage manager, counting every time anyone asks it for or runs in a context. */
class CountingContextManager implements ContextManager {
  readonly inner = new AsyncLocalStorageContextManager();
  uses = 0;
  active(): Context {
    this.uses++;
    return this.inner.active();
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    this.uses++;
    return this.inner.with(ctx, fn, thisArg, ...args);
  }
  bind<T>(ctx: Context, target: T): T {
    return this.inner.bind(ctx, target);
  }
  enable(): this {
    this.inner.enable();
    return this;
  }
  disable(): this {
    this.inner.disable();
    return this;
  }
}

function install(): CountingContextManager {
  const manager = new CountingContextManager().enable();
  expect(context.setGlobalContextManager(manager)).toBe(true);
  return manager;
}

afterEach(() => {
  context.disable();
});

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe("otelTracing under a context manager", () => {
  it("is a child of the active span, and the parent of spans the tool starts", async () => {
    install();
    const t = memoryTracing();
    const nested = defineTool({
      name: "fetch_page",
      execute: async () => {
        await tick();
        t.tracer.startActiveSpan("GET example.com", (http) => http.end());
        return "page";
      },
    });
    const hooks = new ToolHooks();
    hooks.use(otelTracing({ tracer: t.tracer }));
    await t.tracer.startActiveSpan("chat model step", async (step) => {
      await hooks.invoke(nested, {});
      step.end();
    });
    const byName = new Map(t.spans().map((s) => [s.name, s]));
    const step = byName.get("chat model step");
    const tool = byName.get("execute_tool fetch_page");
    const http = byName.get("GET example.com");
    expect(tool?.parentSpanContext?.spanId).toBe(step?.spanContext().spanId);
    expect(tool?.spanContext().traceId).toBe(step?.spanContext().traceId);
    expect(http?.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);
  });

  it("keeps concurrent calls under their own parents", async () => {
    install();
    const t = memoryTracing();
    const hooks = new ToolHooks();
    hooks.use(otelTracing({ tracer: t.tracer }));
    const slow = defineTool({
      name: "slow",
      execute: async ({ n }: { n: number }) => {
        for (let i = 0; i < (n % 3) + 1; i++) await tick();
        return trace.getActiveSpan()?.spanContext().spanId ?? "none";
      },
    });
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map((n) =>
        t.tracer.startActiveSpan(`step ${n}`, async (step) => {
          const out = await hooks.invoke(slow, { n });
          step.end();
          return { n, stepId: step.spanContext().spanId, activeInTool: out.result };
        }),
      ),
    );
    const tools = t.spans().filter((s) => s.name === "execute_tool slow");
    expect(tools).toHaveLength(5);
    for (const r of results) {
      const span = tools.find((s) => s.parentSpanContext?.spanId === r.stepId);
      expect(span).toBeDefined();
      // Inside the tool, the active span is that call's own span.
      expect(r.activeInTool).toBe(span?.spanContext().spanId);
    }
  });

  it("leaves calls made without it untouched by the context manager", async () => {
    const manager = install();
    const t = memoryTracing();
    const plain = new ToolHooks();
    plain.before(() => {});
    plain.use(async (_ctx, next) => {
      await next();
    });
    const traced = new ToolHooks();
    traced.use(otelTracing({ tracer: t.tracer, tools: "web_search" }));
    const other = defineTool({ name: "read_file", execute: async () => "text" });
    manager.uses = 0;
    await plain.invoke(search, { query: "q" });
    await traced.invoke(other, {});
    expect(manager.uses).toBe(0);
    await traced.invoke(search, { query: "q" });
    expect(manager.uses).toBeGreaterThan(0);
    expect(t.spans()).toHaveLength(1);
  });

  it("follows a tracer provider registered after the pack was made (the default tracer)", async () => {
    install();
    const pack = otelTracing();
    const hooks = new ToolHooks();
    hooks.use(pack);
    // Before any provider: the no-op tracer, and the call is unchanged.
    expect((await hooks.invoke(search, { query: "early" })).result).toBe("results for early");
    const t = memoryTracing();
    expect(trace.setGlobalTracerProvider(t.provider)).toBe(true);
    try {
      await hooks.invoke(search, { query: "late" });
      expect(t.spans().map((s) => [s.name, s.instrumentationScope.name])).toEqual([
        ["execute_tool web_search", "@toolware/otel"],
      ]);
    } finally {
      trace.disable();
    }
  });
});
