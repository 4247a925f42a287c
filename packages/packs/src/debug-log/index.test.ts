import { Writable } from "node:stream";
import { Agent, defineTool, Task, ToolHooks } from "@toolware/core";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type DebugLogFields, type DebugLogger, debugLog, safeJson, truncate } from "./index.js";

type Line = { level: "info" | "warn" | "error"; first: string | DebugLogFields; message?: string | undefined };

function capture(): DebugLogger & { lines: Line[]; texts: () => string[] } {
  const lines: Line[] = [];
  const at =
    (level: Line["level"]) =>
    (first: string | DebugLogFields, message?: string): void => {
      lines.push({ level, first, message });
    };
  return {
    lines,
    texts: () => lines.map((l) => `${l.level}: ${typeof l.first === "string" ? l.first : l.message}`),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
  };
}

function pinoCapture() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = pino({ base: undefined, timestamp: false }, stream);
  return {
    logger,
    records: () =>
      chunks
        .join("")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

let t = 0;
const now = () => t;
const search = defineTool({
  name: "web_search",
  execute: ({ query }: { query: string }) => {
    t += 12.34;
    if (query === "fail") throw new Error("upstream 503");
    return query === "empty" ? "" : `results for ${query}`;
  },
});
const researcher = new Agent({ role: "researcher" });
const task = new Task({ description: "Find recent papers about tool-call hooks in agent frameworks, please" });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("debugLog", () => {
  it("logs who called what and how it ended, as the seed does", async () => {
    const log = capture();
    const hooks = new ToolHooks();
    hooks.use(debugLog({ logger: log, now }));
    const out = await hooks.invoke(search, { query: "hooks" }, { agent: researcher, task });
    expect(out.result).toBe("results for hooks");
    const id = out.callId;
    expect(log.texts()).toEqual([
      `info: 🔍 [${id}] web_search called | agent: researcher | task: Find recent papers about tool-call hooks in agent … (+18 chars) | input: {"query":"hooks"}`,
      `info: ✅ [${id}] web_search ok in 12.3ms | result: results for hooks`,
    ]);
  });

  it("reports blocks as warnings, failures as errors, substitutions and empty results", async () => {
    const log = capture();
    const hooks = new ToolHooks();
    hooks.use(debugLog({ logger: log, now, logStart: false }));
    hooks.before((ctx) => (ctx.toolInput as { query: string }).query !== "secret" || ctx.block("no secrets"));
    hooks.use(async (ctx, next) => {
      if ((ctx.toolInput as { query: string }).query === "cached") return ctx.respond("from cache");
      await next();
    });
    await hooks.invoke(search, { query: "secret" });
    await hooks.invoke(search, { query: "fail" });
    await hooks.invoke(search, { query: "cached" });
    await hooks.invoke(search, { query: "empty" });
    const texts = log.texts().map((s) => s.replace(/\[[^\]]+\] /, ""));
    expect(texts).toEqual([
      "warn: ⛔ web_search blocked in 0ms | reason: no secrets",
      "error: ❌ web_search failed in 12.3ms | error: upstream 503",
      "info: ✅ web_search ok (substituted, tool not run) in 0ms | result: from cache",
      "warn: ⚠️ web_search ok in 12.3ms | no result returned",
    ]);
  });

  it("cuts previews to maxPreview", async () => {
    const log = capture();
    const hooks = new ToolHooks();
    hooks.use(debugLog({ logger: log, maxPreview: { input: 20, result: 10 } }));
    await hooks.invoke(search, { query: "a".repeat(50) });
    const [start, end] = log.texts();
    expect(start).toContain(`input: {"query":"aaaaaaaaaa… (+42 chars)`);
    expect(end).toContain("result: results fo… (+52 chars)");
    expect(truncate("ab😀cd", 3)).toBe("ab… (+4 chars)"); // never half an emoji
    expect(safeJson({ n: 1n })).toBe('{"n":"1"}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(safeJson(cyclic)).toBe("[unserialisable]");
  });

  it("redacts every preview before cutting it, so no part of a secret leaks", async () => {
    const log = capture();
    const redact = (text: string) => text.replaceAll(/sk-[a-z0-9]+/g, "[KEY]");
    const leaky = defineTool({
      name: "leaky",
      execute: ({ key }: { key: string }) => {
        if (key.endsWith("boom")) throw new Error(`bad key ${key}`);
        return `your key is ${key}`;
      },
    });
    const hooks = new ToolHooks();
    hooks.use(debugLog({ logger: log, redact, maxPreview: 24 }));
    hooks.before(
      (ctx) => !String((ctx.toolInput as { key: string }).key).includes("deny") || ctx.block("saw sk-deny1"),
    );
    const secretTask = new Task({ description: "use sk-task123 for the lookup" });
    await hooks.invoke(leaky, { key: "sk-abcdef0123456789" }, { task: secretTask });
    await hooks.invoke(leaky, { key: "sk-deny1" });
    await hooks.invoke(leaky, { key: "sk-boom" });
    const all = JSON.stringify(log.lines);
    expect(all).not.toMatch(/sk-/);
    expect(all).not.toMatch(/abcdef/);
    expect(log.texts()[0]).toContain('input: {"key":"[KEY]"}');
    expect(log.texts()[0]).toContain("task: use [KEY] for the lookup");
  });

  it("writes structured records through a real pino logger", async () => {
    const { logger, records } = pinoCapture();
    const hooks = new ToolHooks();
    hooks.use(debugLog({ logger, structured: true, now }));
    const ok = await hooks.invoke(search, { query: "pino" }, { agent: researcher });
    await hooks.invoke(search, { query: "fail" });
    const [start, end, , failed] = records();
    expect(start).toMatchObject({
      level: 30,
      event: "tool_call",
      callId: ok.callId,
      tool: "web_search",
      agent: "researcher",
      input: '{"query":"pino"}',
    });
    expect(start?.msg).toContain("web_search called");
    expect(end).toMatchObject({
      level: 30,
      event: "tool_result",
      decision: "ok",
      durationMs: 12.3,
      result: "results for pino",
    });
    expect(failed).toMatchObject({ level: 50, decision: "error", error: "upstream 503" });
  });

  it("writes plain lines through pino too", async () => {
    const { logger, records } = pinoCapture();
    const hooks = new ToolHooks();
    hooks.use(debugLog({ logger, logStart: false }));
    await hooks.invoke(search, { query: "plain" });
    expect(records()).toEqual([
      { level: 30, msg: expect.stringMatching(/✅ \[.+\] web_search ok in .*ms \| result: results for plain/) },
    ]);
  });

  it("uses console by default", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    const hooks = new ToolHooks();
    hooks.use(debugLog());
    await hooks.invoke(search, { query: "console" });
    expect(info).toHaveBeenCalledTimes(2);
    expect(String(info.mock.calls[1]?.[0])).toContain("result: results for console");
  });

  it("fails open: a throwing logger or redact loses the line, never the call", async () => {
    const hooks = new ToolHooks();
    const failures: string[] = [];
    hooks.on("hook:error", ({ hook, policy }) => failures.push(`${hook.name}:${policy}`));
    const broken: DebugLogger = {
      info: () => {
        throw new Error("disk full");
      },
      warn: () => {},
      error: () => {},
    };
    hooks.use(debugLog({ logger: broken }));
    const out = await hooks.invoke(search, { query: "x" });
    expect(out.status).toBe("ok");
    expect(out.result).toBe("results for x");
    const log = capture();
    const hooks2 = new ToolHooks();
    hooks2.use(
      debugLog({
        logger: log,
        redact: () => {
          throw new Error("redactor down");
        },
      }),
    );
    expect((await hooks2.invoke(search, { query: "sk-123" })).status).toBe("ok");
    expect(log.lines).toEqual([]);
    expect(failures).toEqual(["debug-log:start:continue", "debug-log:end:continue"]);
  });

  it("keeps concurrent calls apart by call id", async () => {
    const log = capture();
    const slow = defineTool({
      name: "slow",
      execute: async ({ n }: { n: number }) => {
        await new Promise((r) => setTimeout(r, (5 - n) % 3));
        return `done ${n}`;
      },
    });
    const hooks = new ToolHooks();
    hooks.use(debugLog({ logger: log }));
    const outs = await Promise.all([0, 1, 2, 3, 4].map((n) => hooks.invoke(slow, { n })));
    for (const out of outs) {
      const mine = log.texts().filter((l) => l.includes(`[${out.callId}]`));
      expect(mine).toHaveLength(2);
      expect(mine[1]).toContain(`result: ${out.result}`);
    }
  });

  it.each([
    [{ logger: { info() {} } }, "`logger` must have info, warn and error methods"],
    [{ maxPreview: 0 }, "`maxPreview` must be a positive integer"],
    [{ maxPreview: { output: 5 } }, "unknown `maxPreview` part `output`"],
    [{ maxPreview: { input: 2.5 } }, "`maxPreview.input` must be a positive integer"],
    [{ redact: /sk-/ }, "`redact` must be a function"],
    [{ level: "debug" }, "unknown option `level`"],
  ])("rejects %j", (options, message) => {
    expect(() => debugLog(options as never)).toThrow(TypeError);
    expect(() => debugLog(options as never)).toThrow(`toolware/debug-log: ${message}`);
  });
});
