import { Agent, Crew, defineTool, ToolHooks } from "@toolware/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type LoopEvent, loopGuard } from "./index.js";

function setup() {
  let t = 0;
  const ran: string[] = [];
  const search = defineTool({
    name: "web_search",
    execute: ({ query }: { query?: unknown; page?: number }) => {
      ran.push(`search:${String(query)}`);
      return "results";
    },
  });
  const read = defineTool({
    name: "read_file",
    execute: () => {
      ran.push("read");
      return "content";
    },
  });
  return { clock: { now: () => t, advance: (ms: number) => (t += ms) }, search, read, ran };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("loopGuard: repeats", () => {
  it("warns on the fifth call in a row, like the seed, through console.warn by default", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { search, ran } = setup();
    const hooks = new ToolHooks();
    hooks.use(loopGuard());
    for (let i = 0; i < 6; i++) expect((await hooks.invoke(search, { query: i })).status).toBe("ok");
    expect(ran).toHaveLength(6);
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      "⚠️  Loop detected: web_search called 5 times in a row by agent (none).",
      "⚠️  Loop detected: web_search called 6 times in a row by agent (none).",
    ]);
  });

  it("lets a different call break the streak", async () => {
    const { search, read } = setup();
    const events: LoopEvent[] = [];
    const hooks = new ToolHooks();
    hooks.use(loopGuard({ maxRepeats: 3, onWarn: (e) => events.push(e) }));
    await hooks.invoke(search, {});
    await hooks.invoke(search, {});
    await hooks.invoke(read, {});
    await hooks.invoke(search, {});
    await hooks.invoke(search, {});
    expect(events).toEqual([]);
    await hooks.invoke(search, {});
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: "repeats", count: 3, limit: 3, action: "warn", toolName: "web_search" });
  });

  it("blocks with a message the agent sees, and keeps blocking until the streak breaks", async () => {
    const { search, read, ran } = setup();
    const agent = new Agent({ role: "researcher" });
    const hooks = new ToolHooks();
    const guard = loopGuard({ maxRepeats: 3, sameInput: true, action: "block", onWarn: () => {} });
    hooks.use(guard);
    const q = { query: "same", page: 1 };
    await hooks.invoke(search, q, { agent });
    await hooks.invoke(search, { page: 1, query: "same" }, { agent }); // key order does not matter
    const third = await hooks.invoke(search, q, { agent });
    expect(third.status).toBe("blocked");
    expect(third.result).toBe(
      "Tool execution blocked by hook. Tool: web_search. Reason: Loop detected: web_search called 3 times in a row with the same input by agent researcher. Try a different approach.",
    );
    expect((await hooks.invoke(search, q, { agent })).status).toBe("blocked");
    expect((await hooks.invoke(search, { query: "other" }, { agent })).status).toBe("ok");
    expect((await hooks.invoke(search, q, { agent })).status).toBe("ok");
    await hooks.invoke(read, {}, { agent });
    expect(ran).toEqual(["search:same", "search:same", "search:other", "search:same", "read"]);
    expect(guard.history(agent).map((e) => e.toolName)).toEqual([
      "web_search",
      "web_search",
      "web_search",
      "web_search",
      "read_file",
    ]);
  });

  it("counts blocked repeats in the streak, so each message says how many calls the agent made", async () => {
    const { search, ran } = setup();
    const events: LoopEvent[] = [];
    const hooks = new ToolHooks();
    const guard = loopGuard({ maxRepeats: 2, sameInput: true, action: "block", onWarn: (e) => events.push(e) });
    hooks.use(guard);
    const reasons: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) reasons.push((await hooks.invoke(search, { query: "same" })).reason);
    expect(reasons).toEqual([
      undefined,
      "Loop detected: web_search called 2 times in a row with the same input by agent (none). Try a different approach.",
      "Loop detected: web_search called 3 times in a row with the same input by agent (none). Try a different approach.",
      "Loop detected: web_search called 4 times in a row with the same input by agent (none). Try a different approach.",
    ]);
    expect(events.map((e) => [e.count, e.limit])).toEqual([
      [2, 2],
      [3, 2],
      [4, 2],
    ]);
    // Only the call it let through is history; a different call breaks the streak.
    expect(guard.history()).toHaveLength(1);
    expect((await hooks.invoke(search, { query: "other" })).status).toBe("ok");
    expect((await hooks.invoke(search, { query: "same" })).status).toBe("ok");
    expect(ran).toEqual(["search:same", "search:other", "search:same"]);
  });

  it("is exact under 100 concurrent identical calls", async () => {
    const { search, ran } = setup();
    const hooks = new ToolHooks();
    hooks.use(loopGuard({ maxRepeats: 5, action: "block", onWarn: () => {} }));
    const outs = await Promise.all(Array.from({ length: 100 }, () => hooks.invoke(search, { query: "x" })));
    expect(outs.filter((o) => o.status === "ok")).toHaveLength(4);
    expect(ran).toHaveLength(4);
  });

  it("never treats inputs it cannot compare as the same", async () => {
    const { search } = setup();
    const events: LoopEvent[] = [];
    const hooks = new ToolHooks();
    hooks.use(loopGuard({ maxRepeats: 2, sameInput: true, onWarn: (e) => events.push(e) }));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await hooks.invoke(search, cyclic);
    await hooks.invoke(search, cyclic);
    expect(events).toEqual([]);
  });
});

describe("loopGuard: window", () => {
  it("triggers on the M-th call within the window and frees up as the window moves", async () => {
    const { clock, search, read } = setup();
    const events: string[] = [];
    const hooks = new ToolHooks();
    hooks.use(
      loopGuard({
        maxRepeats: false,
        maxInWindow: 3,
        windowMs: "10s",
        action: "block",
        now: clock.now,
        onWarn: (e) => events.push(e.message),
      }),
    );
    const call = async () => (await hooks.invoke(search, {})).status;
    expect(await call()).toBe("ok"); // t=0
    await hooks.invoke(read, {});
    clock.advance(4_000);
    expect(await call()).toBe("ok"); // t=4s
    await hooks.invoke(read, {});
    clock.advance(5_999);
    expect(await call()).toBe("blocked"); // t=9.999s: 3 within 10s
    clock.advance(1);
    expect(await call()).toBe("ok"); // t=10s: the t=0 call left the window
    expect(await call()).toBe("blocked");
    expect(events[0]).toBe("Loop detected: web_search called 3 times within 10s by agent (none).");
  });
});

describe("loopGuard: scopes", () => {
  const alice = new Agent({ role: "alice" });
  const bob = new Agent({ role: "bob" });

  it.each([
    ["agent", 0],
    ["global", 2],
  ] as const)("scope %s: interleaved agents trigger %i warnings", async (scope, expected) => {
    const { search } = setup();
    const events: LoopEvent[] = [];
    const hooks = new ToolHooks();
    hooks.use(loopGuard({ maxRepeats: 3, scope, onWarn: (e) => events.push(e) }));
    for (const agent of [alice, bob, alice, bob]) await hooks.invoke(search, {}, { agent });
    expect(events).toHaveLength(expected);
    if (scope === "global") expect(events[0]?.scopeName).toBe("global");
  });

  it("scope crew: counts a crew's agents together, and crews apart", async () => {
    const { search } = setup();
    const events: LoopEvent[] = [];
    const research = new Crew({ name: "research", agents: [alice, bob] });
    const ops = new Crew({ name: "ops" });
    const hooks = new ToolHooks();
    const guard = loopGuard({ maxRepeats: 3, scope: "crew", onWarn: (e) => events.push(e) });
    hooks.use(guard);
    await hooks.invoke(search, {}, { agent: alice, crew: research });
    await hooks.invoke(search, {}, { crew: ops });
    await hooks.invoke(search, {}, { agent: bob, crew: research });
    await hooks.invoke(search, {}, { crew: ops });
    await hooks.invoke(search, {}, { agent: alice, crew: research });
    expect(events.map((e) => e.scopeName)).toEqual(["crew research"]);
    expect(guard.history(research).map((e) => e.agentRole)).toEqual(["alice", "bob", "alice"]);
    expect(guard.history(ops)).toHaveLength(2);
    guard.reset(research);
    expect(guard.history(research)).toEqual([]);
    expect(guard.history(ops)).toHaveLength(2);
    guard.reset();
    expect(guard.history(ops)).toEqual([]);
  });

  it("keeps a bounded history, oldest first", async () => {
    const { clock, search, read } = setup();
    const hooks = new ToolHooks();
    const guard = loopGuard({ historySize: 3, now: clock.now, onWarn: () => {} });
    hooks.use(guard);
    for (let i = 0; i < 5; i++) {
      clock.advance(1);
      await hooks.invoke(i % 2 ? read : search, {});
    }
    expect(guard.history().map((e) => `${e.toolName}@${e.at}`)).toEqual([
      "web_search@3",
      "read_file@4",
      "web_search@5",
    ]);
    const copy = guard.history();
    copy.length = 0;
    expect(guard.history()).toHaveLength(3);
  });
});

describe("loopGuard: failures and options", () => {
  it("fails open when warning, closed when blocking", async () => {
    const { search, ran } = setup();
    const throwing = () => {
      throw new Error("pager down");
    };
    const warnHooks = new ToolHooks();
    warnHooks.use(loopGuard({ maxRepeats: 2, onWarn: throwing }));
    await warnHooks.invoke(search, {});
    expect((await warnHooks.invoke(search, {})).status).toBe("ok");
    const blockHooks = new ToolHooks();
    blockHooks.use(loopGuard({ maxRepeats: 2, action: "block", onWarn: throwing }));
    await blockHooks.invoke(search, {});
    const out = await blockHooks.invoke(search, {});
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe("hook loop-guard failed: pager down");
    expect(ran).toHaveLength(3);
  });

  it("uses a custom block message", async () => {
    const { search } = setup();
    const hooks = new ToolHooks();
    hooks.use(
      loopGuard({
        maxRepeats: 2,
        action: "block",
        onWarn: () => {},
        message: (e) => `stop: ${e.count}x ${e.toolName}`,
      }),
    );
    await hooks.invoke(search, {});
    expect((await hooks.invoke(search, {})).reason).toBe("stop: 2x web_search");
  });

  it.each([
    [{ maxRepeats: 1 }, "`maxRepeats` must be an integer of at least 2"],
    [{ maxInWindow: 2.5 }, "`maxInWindow` must be an integer of at least 2"],
    [{ maxRepeats: false }, "with `maxRepeats: false`, set `maxInWindow`"],
    [{ windowMs: "1m" }, "`windowMs` only applies with `maxInWindow`"],
    [{ maxInWindow: 3, windowMs: "soon" }, "`windowMs` must be a number of milliseconds or a string"],
    [{ scope: "task" }, "`scope` must be"],
    [{ action: "kill" }, "`action` must be"],
    [{ historySize: 0 }, "`historySize` must be a positive integer"],
    [{ repeats: 3 }, "unknown option `repeats`"],
  ])("rejects %j", (options, message) => {
    expect(() => loopGuard(options as never)).toThrow(TypeError);
    expect(() => loopGuard(options as never)).toThrow(`toolware/loop-guard: ${message}`);
  });
});
