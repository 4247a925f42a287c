import { readFileSync } from "node:fs";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { Agent, Crew, defineTool, HookFailedError, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { INSTRUMENTATION_VERSION, otelTracing } from "./index.js";
import { eventsOf, memoryTracing, search } from "./test-fixtures.js";

const researcher = new Agent({ role: "researcher" });

describe("otelTracing: one span per call", () => {
  it("names an ok call execute_tool <tool> with the GenAI attributes, status unset, nothing captured", async () => {
    const t = memoryTracing();
    const hooks = new ToolHooks();
    hooks.use(otelTracing({ tracer: t.tracer }));
    const out = await hooks.invoke(search, { query: "hooks" }, { agent: researcher });
    expect(out.status).toBe("ok");
    const span = t.only();
    expect(span.name).toBe("execute_tool web_search");
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.ended).toBe(true);
    expect(span.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "web_search",
      "gen_ai.tool.call.id": out.callId,
      "gen_ai.tool.description": "Searches the web",
      "gen_ai.tool.type": "function",
      "toolware.call.id": out.callId,
      "toolware.agent.role": "researcher",
      "toolware.status": "ok",
      "toolware.tool.ran": true,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.events).toEqual([]);
    expect(span.parentSpanContext).toBeUndefined();
  });

  it("marks a blocked call ERROR with error.type and an event naming the hook and its layer", async () => {
    const t = memoryTracing();
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "junior" });
    const crew = new Crew({ agents: [agent] });
    hooks.use(otelTracing({ tracer: t.tracer }));
    agent.before(function noSearch(ctx) {
      ctx.block("juniors may not search");
    });
    const out = await hooks.invoke(search, { query: "x" }, { agent, crew });
    expect(out.status).toBe("blocked");
    const span = t.only();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "juniors may not search" });
    expect(span.attributes["error.type"]).toBe("blocked");
    expect(span.attributes["toolware.status"]).toBe("blocked");
    expect(span.attributes["toolware.tool.ran"]).toBe(false);
    expect(eventsOf(span)).toEqual([
      {
        name: "toolware.hook.blocked",
        attributes: {
          "toolware.hook.name": "noSearch",
          "toolware.hook.layer": "agent",
          "toolware.hook.kind": "before",
          "toolware.hook.phase": "before",
          "toolware.hook.reason": "juniors may not search",
        },
      },
    ]);
  });

  it("marks a failed tool ERROR with the error's class as error.type and an exception event", async () => {
    const t = memoryTracing();
    const hooks = new ToolHooks();
    hooks.use(otelTracing({ tracer: t.tracer }));
    const out = await hooks.invoke(search, { query: "fail" });
    expect(out.status).toBe("error");
    const span = t.only();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "upstream 503 for sk-secret-1" });
    expect(span.attributes["error.type"]).toBe("TypeError");
    expect(span.events.map((e) => e.name)).toEqual(["exception"]);
    expect(span.events[0]?.attributes?.["exception.type"]).toBe("TypeError");
  });

  it("records one event per decision in trace order: modified input, substituted, modified result, failed", async () => {
    const t = memoryTracing();
    const hooks = new ToolHooks();
    hooks.use(otelTracing({ tracer: t.tracer }));
    hooks.before(function normalise(ctx) {
      (ctx.toolInput as { query: string }).query = "normalised";
    });
    hooks.before(
      function flaky() {
        throw new Error("policy service down");
      },
      { onError: "continue" },
    );
    hooks.after(function shout(ctx) {
      return ctx.toolResult?.toUpperCase();
    });
    hooks.use(async function cacheHit(ctx, next) {
      if ((ctx.toolInput as { query: string }).query === "normalised") return ctx.respond("cached");
      await next();
    });
    const out = await hooks.invoke(search, { query: "raw" });
    expect(out.result).toBe("CACHED");
    const events = eventsOf(t.only()).map((e) => [
      e.name,
      e.attributes["toolware.hook.name"],
      e.attributes["toolware.hook.layer"],
      e.attributes["error.type"],
    ]);
    expect(events).toEqual([
      ["toolware.hook.modified_input", "normalise", "global", undefined],
      ["toolware.hook.failed", "flaky", "global", "Error"],
      ["toolware.hook.substituted", "cacheHit", "global", undefined],
      ["toolware.hook.modified_result", "shout", "global", undefined],
    ]);
    expect(t.only().attributes["toolware.tool.ran"]).toBe(false);
    expect(t.only().status.code).toBe(SpanStatusCode.UNSET);
  });

  it("captures arguments (as the tool got them) and the result only when asked, through redact", async () => {
    const t = memoryTracing();
    const hooks = new ToolHooks();
    const redact = (text: string) => text.replaceAll(/sk-[\w-]+/g, "[KEY]");
    hooks.use(otelTracing({ tracer: t.tracer, captureArguments: true, captureResult: true, redact }));
    hooks.before((ctx) => {
      (ctx.toolInput as { query: string }).query += " sk-live-abc";
    });
    await hooks.invoke(search, { query: "q" });
    await hooks.invoke(search, { query: "fail" });
    const [ok, failed] = t.spans();
    expect(ok?.attributes["gen_ai.tool.call.arguments"]).toBe('{"query":"q [KEY]"}');
    expect(ok?.attributes["gen_ai.tool.call.result"]).toBe("results for q [KEY]");
    expect(JSON.stringify([ok, failed].map((s) => [s?.attributes, s?.events, s?.status]))).not.toContain("sk-");
    // A redacted message does not match the error's own: no stack (which repeats the message) is recorded.
    expect(failed?.events[0]?.attributes?.["exception.stacktrace"]).toBeUndefined();
  });

  it("records the adapter's call id when `callId` supplies one, and keeps toolware's own beside it", async () => {
    const t = memoryTracing();
    const hooks = new ToolHooks();
    hooks.use(otelTracing({ tracer: t.tracer, callId: (ctx) => (ctx.toolName === "web_search" ? "call_abc" : "") }));
    const out = await hooks.invoke(search, { query: "q" });
    expect(t.only().attributes["gen_ai.tool.call.id"]).toBe("call_abc");
    expect(t.only().attributes["toolware.call.id"]).toBe(out.callId);
  });

  it("ends the span ERROR when a throw-policy hook makes invoke reject, and lets the rejection through", async () => {
    const t = memoryTracing();
    const hooks = new ToolHooks();
    hooks.use(otelTracing({ tracer: t.tracer }));
    hooks.before(
      function strict() {
        throw new RangeError("bad");
      },
      { onError: "throw" },
    );
    await expect(hooks.invoke(search, { query: "q" })).rejects.toBeInstanceOf(HookFailedError);
    const span = t.only();
    expect(span.ended).toBe(true);
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes["error.type"]).toBe("HookFailedError");
  });

  it("uses the instrumentation scope version of its package", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    expect(INSTRUMENTATION_VERSION).toBe(pkg.version);
  });

  it("spans only the tools and agents it is given", async () => {
    const t = memoryTracing();
    const hooks = new ToolHooks();
    hooks.use(otelTracing({ tracer: t.tracer, tools: "web_*", agents: "researcher" }));
    const other = defineTool({ name: "read_file", execute: () => "text" });
    await hooks.invoke(other, {}, { agent: researcher });
    await hooks.invoke(search, { query: "q" });
    await hooks.invoke(search, { query: "q" }, { agent: researcher });
    expect(t.spans().map((s) => s.attributes["toolware.agent.role"])).toEqual(["researcher"]);
  });
});
