import type { Tracer } from "@opentelemetry/api";
import { ToolHooks, toolwareCode } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { otelTracing, REDACTION_FAILED } from "./index.js";
import { memoryTracing, search } from "./test-fixtures.js";

describe("otelTracing fails open", () => {
  it("runs the call unchanged when the tracer throws, and reports it as the hook's failure", async () => {
    const broken = {
      startSpan() {
        throw new Error("exporter misconfigured");
      },
      startActiveSpan() {
        throw new Error("exporter misconfigured");
      },
    } as unknown as Tracer;
    const hooks = new ToolHooks();
    const reported: string[] = [];
    hooks.on("hook:error", ({ hook, policy, error }) => reported.push(`${hook.name}:${policy}:${String(error)}`));
    hooks.use(otelTracing({ tracer: broken }));
    const out = await hooks.invoke(search, { query: "q" });
    expect(out.status).toBe("ok");
    expect(out.result).toBe("results for q");
    expect(reported).toEqual(["otel:continue:Error: exporter misconfigured"]);
  });

  it("records a placeholder when redact throws or returns a non-string, and reports TOOLWARE_REDACT_FAILED", async () => {
    for (const redact of [
      () => {
        throw new Error("redactor down");
      },
      () => 42 as unknown as string,
    ]) {
      const t = memoryTracing();
      const codes: unknown[] = [];
      const hooks = new ToolHooks({ onListenerError: (where, error) => codes.push(`${where}:${toolwareCode(error)}`) });
      hooks.on("hook:error", ({ error }) => codes.push(`hook:error ${String(error)}`));
      hooks.use(otelTracing({ tracer: t.tracer, captureArguments: true, captureResult: true, redact }));
      hooks.before((ctx) => ctx.block("saw sk-secret"));
      const out = await hooks.invoke(search, { query: "sk-secret" });
      expect(out.status).toBe("blocked");
      expect(out.reason).toBe("saw sk-secret");
      const span = t.only();
      expect(span.attributes["gen_ai.tool.call.arguments"]).toBe(REDACTION_FAILED);
      expect(span.status.message).toBe(REDACTION_FAILED);
      expect(JSON.stringify([span.attributes, span.events, span.status])).not.toContain("sk-secret");
      // Reported where failing listeners are, leaving the call and its trace as they were.
      expect(codes).toEqual(["otel.redact:TOOLWARE_REDACT_FAILED"]);
      expect(out.trace.map((e) => `${e.hook}:${e.action}`)).toEqual(["before#1:blocked", "otel:proceeded"]);
    }
  });

  it("never records what redact removes, whatever the input, reason or error message", async () => {
    const t = memoryTracing();
    const hooks = new ToolHooks();
    const redact = (text: string) => text.replaceAll("SECRET", "[X]");
    hooks.use(otelTracing({ tracer: t.tracer, captureArguments: true, captureResult: true, redact }));
    hooks.before((ctx) => {
      const q = (ctx.toolInput as { query: string }).query;
      if (q.length % 3 === 0) ctx.block(`no ${q}`);
    });
    const echo = {
      ...search,
      name: "echo",
      execute: ({ query }: { query: string }) => {
        if (query.length % 3 === 1) throw new Error(`failed on ${query}`);
        return query;
      },
    };
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), async (a, b) => {
        t.exporter.reset();
        await hooks.invoke(echo, { query: `${a}SECRET${b}` });
        const text = JSON.stringify(t.spans().map((s) => [s.attributes, s.events, s.status]));
        // "SECRE" + "T…" split by a JSON escape could hide it: check the decoded values too.
        expect(text).not.toContain("SECRET");
        for (const s of t.spans()) {
          for (const v of Object.values(s.attributes)) expect(String(v)).not.toContain("SECRET");
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("otelTracing options", () => {
  it.each([
    [{ tracer: {} }, "TOOLWARE_INVALID_OPTION", "`tracer` must be an OpenTelemetry Tracer"],
    [{ captureArguments: "yes" }, "TOOLWARE_INVALID_OPTION", "`captureArguments` must be true or false"],
    [{ captureResult: true }, "TOOLWARE_INVALID_OPTION", "`captureResult` needs `redact`"],
    [{ captureArguments: true }, "TOOLWARE_INVALID_OPTION", "`captureArguments` needs `redact`"],
    [{ redact: /sk-/ }, "TOOLWARE_INVALID_OPTION", "`redact` must be a function"],
    [{ callId: "id" }, "TOOLWARE_INVALID_OPTION", "`callId` must be a function"],
    [{ priority: Number.NaN }, "TOOLWARE_INVALID_OPTION", "`priority` must be a finite number"],
    [{ captureArgs: true }, "TOOLWARE_UNKNOWN_OPTION", "unknown option `captureArgs`"],
    [null, "TOOLWARE_INVALID_OPTION", "otelTracing() takes an options object"],
  ])("rejects %j", (options, code, message) => {
    let thrown: unknown;
    try {
      otelTracing(options as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect(toolwareCode(thrown)).toBe(code);
    expect(String((thrown as Error).message)).toContain(`toolware/otel: ${message}`);
  });

  it("registers as one fail-open middleware at priority 1200, named otel", () => {
    const hooks = new ToolHooks();
    hooks.use(otelTracing());
    expect(hooks.list().map((h) => [h.name, h.kind, h.priority, h.onError])).toEqual([
      ["otel", "middleware", 1200, "continue"],
    ]);
  });
});
