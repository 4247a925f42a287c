// Structured logs out of the box: a real pino logger, one JSON line per call, parsed back.
import { Writable } from "node:stream";
import { Agent, defineTool, Task, ToolHooks } from "@toolware/core";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { debugLog } from "./index.js";

function pinoLines() {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  // pino's defaults (pid, hostname, time) stay on: the test reads the record as an application would.
  const logger = pino({ level: "info" }, stream);
  return {
    logger,
    records: () =>
      text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

let clock = 0;
const search = defineTool({
  name: "web_search",
  execute: ({ query }: { query: string }) => {
    clock += 5;
    if (query === "fail") throw new Error("upstream 503");
    return `results for ${query}`;
  },
});
const researcher = new Agent({ role: "researcher" });
const task = new Task({ description: "Survey tool-call hooks" });

describe("debugLog with pino", () => {
  it("writes one JSON line per call with id, tool, agent, task, status, duration, reason and hook decisions", async () => {
    const { logger, records } = pinoLines();
    const hooks = new ToolHooks();
    hooks.use(debugLog({ logger, structured: true, logStart: false, now: () => clock }));
    hooks.before(function denyList(ctx) {
      if ((ctx.toolInput as { query: string }).query === "secret") ctx.block("query is on the deny list");
    });
    hooks.before(function trim(ctx) {
      const input = ctx.toolInput as { query: string };
      if (input.query !== input.query.trim()) input.query = input.query.trim();
    });
    const ok = await hooks.invoke(search, { query: " hooks " }, { agent: researcher, task });
    const blocked = await hooks.invoke(search, { query: "secret" }, { agent: researcher });
    const failed = await hooks.invoke(search, { query: "fail" });

    const [first, second, third, ...rest] = records();
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      level: 30,
      event: "tool_result",
      callId: ok.callId,
      tool: "web_search",
      agent: "researcher",
      task: "Survey tool-call hooks",
      status: "ok",
      decision: "ok",
      durationMs: 5,
      result: "results for hooks",
      hooks: [{ hook: "trim", layer: "global", phase: "before", action: "modified-input" }],
    });
    expect(typeof first?.time).toBe("number");
    expect(first?.msg).toBe(`✅ [${ok.callId}] web_search ok in 5ms | result: results for hooks`);
    expect(second).toMatchObject({
      level: 40,
      callId: blocked.callId,
      agent: "researcher",
      status: "blocked",
      reason: "query is on the deny list",
      durationMs: 0,
      hooks: [
        { hook: "denyList", layer: "global", phase: "before", action: "blocked", reason: "query is on the deny list" },
      ],
    });
    expect(second).not.toHaveProperty("task");
    expect(third).toMatchObject({
      level: 50,
      callId: failed.callId,
      status: "error",
      error: "upstream 503",
      hooks: [],
    });
    // pino drops undefined fields: a call without an agent has no `agent` key at all.
    expect(third).not.toHaveProperty("agent");
  });

  it("redacts and cuts the reasons inside the hook decisions like every other preview", async () => {
    const { logger, records } = pinoLines();
    const hooks = new ToolHooks();
    const redact = (text: string) => text.replaceAll(/sk-\w+/g, "[KEY]");
    hooks.use(debugLog({ logger, structured: true, logStart: false, redact, maxPreview: { result: 12 } }));
    hooks.before(function keyCheck(ctx) {
      ctx.block("found sk-live123 in the query");
    });
    await hooks.invoke(search, { query: "x" });
    const [record] = records();
    expect(JSON.stringify(record)).not.toContain("sk-");
    expect(record?.hooks).toEqual([
      { hook: "keyCheck", layer: "global", phase: "before", action: "blocked", reason: "found [KEY] … (+12 chars)" },
    ]);
  });
});
