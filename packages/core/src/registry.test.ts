import { describe, expect, it, vi } from "vitest";
import {
  Agent,
  Crew,
  definePack,
  defineTool,
  type HookInfo,
  normalizeName,
  type ToolCallHookContext,
  ToolHooks,
} from "./index.js";

const tool = (name: string) => defineTool({ name, execute: () => name });

describe("registration and removal", () => {
  it("returns an unregister function from use, before and after", async () => {
    const hooks = new ToolHooks();
    const offB = hooks.before(() => false);
    const offA = hooks.after(() => "after");
    const offM = hooks.use(async (ctx) => ctx.respond("mw"));
    expect(hooks.list()).toHaveLength(3);
    expect(offB()).toBe(true);
    expect(offB()).toBe(false);
    expect(offM()).toBe(true);
    await expect(hooks.invoke(tool("t"), {})).resolves.toMatchObject({ result: "after" });
    expect(offA()).toBe(true);
    expect(hooks.list()).toEqual([]);
  });

  it("removes every registration of a function, filtered ones included", () => {
    const hooks = new ToolHooks();
    const audit = () => {};
    hooks.before(audit);
    hooks.before(audit, { tools: "db_*" });
    hooks.after(audit as never, { agents: "admin" });
    hooks.before(() => {});
    expect(hooks.remove(audit)).toBe(true);
    expect(hooks.list()).toHaveLength(1);
    expect(hooks.remove(audit)).toBe(false);
  });

  it("removes exactly one registration through its handle", () => {
    const hooks = new ToolHooks();
    const audit = () => {};
    const first = hooks.before(audit);
    hooks.before(audit);
    expect(hooks.remove(first)).toBe(true);
    expect(hooks.list()).toHaveLength(1);
    expect(hooks.remove(first)).toBe(false);
  });

  it("clears all hooks or one kind and says how many went", () => {
    const hooks = new ToolHooks();
    hooks.before(() => {});
    hooks.before(() => {});
    hooks.after(() => {});
    hooks.use(async (_c, n) => n());
    expect(hooks.clear("before")).toBe(2);
    expect(hooks.clear()).toBe(2);
    expect(hooks.clear()).toBe(0);
  });

  it("lists a copy describing each hook", () => {
    const hooks = new ToolHooks();
    function guard() {}
    const filter = (ctx: ToolCallHookContext) => ctx.toolName.length > 2;
    hooks.before(guard, { priority: 3, tools: ["a", /b/], onError: "continue", timeoutMs: 50 });
    hooks.after(() => {}, { agents: filter });
    const list = hooks.list();
    expect(list[0]).toMatchObject({
      name: "guard",
      kind: "before",
      layer: "global",
      priority: 3,
      onError: "continue",
      timeoutMs: 50,
      tools: ["a", /b/],
      conditional: false,
      pack: undefined,
      fn: guard,
    });
    expect(list[1]).toMatchObject({ name: "after#1", kind: "after", priority: 0, conditional: true });
    list.pop();
    expect(hooks.list()).toHaveLength(2);
  });

  it("names hooks after their function, a bound method, or their position", () => {
    const hooks = new ToolHooks();
    const obj = {
      check() {},
    };
    hooks.before(obj.check.bind(obj));
    hooks.before(() => {});
    hooks.before(() => {}, { name: "explicit" });
    expect(hooks.list().map((h) => h.name)).toEqual(["check", "before#1", "explicit"]);
  });

  it("rejects bad registrations with clear errors", () => {
    const hooks = new ToolHooks();
    expect(() => hooks.before("nope" as never)).toThrow(/a before hook must be a function, got string/);
    expect(() => hooks.before(() => {}, { tool: "x" } as never)).toThrow(/unknown hook option `tool`/);
    expect(() => hooks.before(() => {}, { priority: Number.NaN })).toThrow(/`priority` must be a finite number/);
    expect(() => hooks.before(() => {}, { onError: "ignore" as never })).toThrow(/`onError` must be/);
    expect(() => hooks.before(() => {}, { timeoutMs: -1 })).toThrow(/`timeoutMs` must be a positive number/);
    expect(() => hooks.before(() => {}, { name: "" })).toThrow(/`name` must be a non-empty string/);
    expect(() => hooks.before(() => {}, { tools: [] })).toThrow(/empty list/);
    expect(() => hooks.before(() => {}, { tools: "!!!" })).toThrow(/matches nothing once normalised/);
    expect(() => hooks.before(() => {}, { tools: [() => true] as never })).toThrow(/pass a predicate on its own/);
    expect(() => hooks.before(() => {}, { tools: 3 as never })).toThrow(/must be a string, a RegExp or a tool/);
    expect(() => hooks.before(() => {}, null as never)).toThrow(/hook options must be an object/);
    const pack = definePack({ name: "p", hooks: [] });
    expect(() => hooks.before(pack as never)).toThrow(/register a pack with use\(\)/);
  });

  it("emits hook:added and hook:removed", () => {
    const hooks = new ToolHooks();
    const seen: string[] = [];
    const stop = hooks.on("hook:added", (info: HookInfo) => seen.push(`+${info.name}`));
    hooks.on("hook:removed", (info) => seen.push(`-${info.name}`));
    const off = hooks.before(function one() {});
    off();
    stop();
    hooks.before(function two() {});
    hooks.clear();
    expect(seen).toEqual(["+one", "-one", "-two"]);
  });

  it("supports once and off", async () => {
    const hooks = new ToolHooks();
    const once = vi.fn();
    const on = vi.fn();
    hooks.once("call:start", once);
    hooks.on("call:start", on);
    await hooks.invoke(tool("t"), {});
    hooks.off("call:start", on);
    await hooks.invoke(tool("t"), {});
    expect(once).toHaveBeenCalledTimes(1);
    expect(on).toHaveBeenCalledTimes(1);
  });
});

describe("packs", () => {
  const makePack = () => {
    const calls: string[] = [];
    const pack = definePack({
      name: "audit",
      hooks: [
        {
          kind: "before",
          fn: function start() {
            calls.push("before");
          },
        },
        {
          kind: "after",
          fn: () => {
            calls.push("after");
          },
          options: { name: "finish", onError: "continue" },
        },
        {
          kind: "middleware",
          fn: async (_c, next) => {
            calls.push("mw");
            await next();
          },
        },
      ],
      calls: () => [...calls],
    });
    return pack;
  };

  it("registers every hook of a pack with one unregister function, and keeps extras", async () => {
    const hooks = new ToolHooks();
    const pack = makePack();
    const off = hooks.use(pack);
    expect(hooks.list().map((h) => [h.name, h.pack, h.onError])).toEqual([
      ["audit:start", "audit", undefined],
      ["audit:finish", "audit", "continue"],
      ["audit:middleware#2", "audit", undefined],
    ]);
    await hooks.invoke(tool("t"), {});
    expect(pack.calls()).toEqual(["before", "mw", "after"]);
    expect(off()).toBe(true);
    expect(hooks.list()).toEqual([]);
  });

  it("applies use() options to every hook of the pack, filters combined with the pack's own", async () => {
    const hooks = new ToolHooks();
    const ran: string[] = [];
    const pack = definePack({
      name: "scoped",
      hooks: [
        {
          kind: "before",
          fn: (ctx) => {
            ran.push(ctx.toolName);
          },
          options: { tools: "db_*" },
        },
      ],
    });
    hooks.use(pack, { tools: ["db_read", "web_search"], priority: 7 });
    for (const name of ["db_read", "db_write", "web_search"]) await hooks.invoke(tool(name), {});
    expect(ran).toEqual(["db_read"]);
    expect(hooks.list()[0]?.priority).toBe(7);
  });

  it("removes a pack's hooks with remove(pack)", () => {
    const hooks = new ToolHooks();
    const pack = makePack();
    hooks.use(pack);
    hooks.before(() => {});
    expect(hooks.remove(pack)).toBe(true);
    expect(hooks.list()).toHaveLength(1);
  });

  it("validates pack definitions", () => {
    expect(() => definePack({ name: "", hooks: [] })).toThrow(/non-empty `name`/);
    expect(() => definePack({ name: "x" } as never)).toThrow(/needs a `hooks` array/);
    expect(() => definePack({ name: "x", hooks: [{ kind: "around", fn: () => {} }] } as never)).toThrow(
      /`kind` must be "before", "after" or "middleware"/,
    );
    expect(() => definePack({ name: "x", hooks: [{ kind: "before", fn: 1 }] } as never)).toThrow(
      /`fn` must be a function/,
    );
  });
});

describe("filters", () => {
  it("normalises tool names like CrewAI", () => {
    expect(normalizeName("Delete File")).toBe("delete_file");
    expect(normalizeName("deleteFile")).toBe("delete_file");
    expect(normalizeName("delete-file")).toBe("delete_file");
    expect(normalizeName("fetchURLContent")).toBe("fetch_url_content");
    expect(normalizeName("  Résumé Builder ")).toBe("resume_builder");
  });

  it("matches exact names, globs, RegExps, tool objects and arrays, after normalising", async () => {
    const hooks = new ToolHooks();
    const seen: Record<string, string[]> = { exact: [], glob: [], regex: [], object: [], list: [] };
    const search = tool("web_search");
    hooks.before((ctx) => void seen.exact?.push(ctx.toolName), { tools: "Delete File" });
    hooks.before((ctx) => void seen.glob?.push(ctx.toolName), { tools: "db_*" });
    hooks.before((ctx) => void seen.regex?.push(ctx.toolName), { tools: /^Send/g });
    hooks.before((ctx) => void seen.object?.push(ctx.toolName), { tools: search });
    hooks.before((ctx) => void seen.list?.push(ctx.toolName), { tools: ["delete_file", /mail/] });
    const names = ["delete_file", "DeleteFile", "db_read", "dbread", "SendEmail", "send_email", "web_search", "other"];
    for (const name of names) await hooks.invoke(tool(name), {});
    expect(seen).toEqual({
      exact: ["delete_file", "DeleteFile"],
      glob: ["db_read"],
      regex: ["SendEmail"],
      object: ["web_search"],
      list: ["delete_file", "DeleteFile", "SendEmail", "send_email"],
    });
  });

  it("keeps the tool's own name in the context and the messages", async () => {
    const hooks = new ToolHooks();
    hooks.before(() => false, { tools: "delete_file" });
    await expect(hooks.invoke(tool("Delete File"), {})).resolves.toMatchObject({
      toolName: "Delete File",
      result: "Tool execution blocked by hook. Tool: Delete File",
    });
  });

  it("matches agents by role and never matches a call without an agent", async () => {
    const hooks = new ToolHooks();
    const ran: string[] = [];
    hooks.before((ctx) => void ran.push(ctx.agent?.role ?? "none"), { agents: ["junior_*", /^Senior/] });
    const junior = new Agent({ role: "Junior Analyst" });
    const senior = new Agent({ role: "Senior Analyst" });
    const other = new Agent({ role: "writer" });
    for (const agent of [junior, senior, other, undefined]) await hooks.invoke(tool("t"), {}, { agent });
    expect(ran).toEqual(["Junior Analyst", "Senior Analyst"]);
  });

  it("runs predicate filters per call, and a throwing predicate counts as a hook failure", async () => {
    const hooks = new ToolHooks();
    const ran = vi.fn();
    hooks.before(ran, { tools: (ctx) => ctx.toolInput.flag === true });
    await hooks.invoke(tool("t"), { flag: false });
    await hooks.invoke(tool("t"), { flag: true });
    expect(ran).toHaveBeenCalledTimes(1);
    hooks.before(() => {}, {
      name: "fragile",
      agents: () => {
        throw new Error("no roles service");
      },
    });
    await expect(hooks.invoke(tool("t"), {})).resolves.toMatchObject({
      status: "blocked",
      reason: "hook fragile failed: no roles service",
    });
  });

  it("requires both tools and agents to match", async () => {
    const hooks = new ToolHooks();
    hooks.before(() => false, { tools: "delete_file", agents: "junior_agent" });
    const junior = new Agent({ role: "junior_agent" });
    const lead = new Agent({ role: "lead" });
    const results = await Promise.all([
      hooks.invoke(tool("delete_file"), {}, { agent: junior }),
      hooks.invoke(tool("delete_file"), {}, { agent: lead }),
      hooks.invoke(tool("read_file"), {}, { agent: junior }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["blocked", "ok", "ok"]);
  });
});

describe("explain and the chain cache", () => {
  it("describes the chain a call would run, outermost first", () => {
    const hooks = new ToolHooks();
    const crew = new Crew();
    const agent = new Agent({ role: "r" });
    hooks.before(function g() {});
    hooks.after(function ga() {});
    hooks.before(function onlyDb() {}, { tools: "db_*" });
    crew.use(async function c(_ctx, next) {
      await next();
    });
    agent.before(function a() {}, { priority: 1 });
    const chain = hooks.explain({ toolName: "web_search", agent, crew });
    expect(chain.map((h) => `${h.layer}:${h.name}`)).toEqual(["agent:a", "global:ga", "global:g", "crew:c"]);
    expect(hooks.explain({ toolName: "db_read" }).map((h) => h.name)).toEqual(["ga", "g", "onlyDb"]);
    expect(() => hooks.explain({} as never)).toThrow(/explain\(\) takes \{ toolName/);
  });

  it("filters statically once per (tool, agent, crew), not per call", async () => {
    let tests = 0;
    class CountingRegExp extends RegExp {
      override test(value: string): boolean {
        tests++;
        return super.test(value);
      }
    }
    const hooks = new ToolHooks();
    const ran = vi.fn();
    hooks.before(ran, { tools: new CountingRegExp("^db_") });
    for (let i = 0; i < 50; i++) await hooks.invoke(tool("db_read"), {});
    for (let i = 0; i < 50; i++) await hooks.invoke(tool("web_search"), {});
    expect(ran).toHaveBeenCalledTimes(50);
    // one chain per tool name: db_read matches on the raw name; web_search fails on both forms
    expect(tests).toBe(3);
  });

  it("rebuilds a cached chain when any of its layers changes", async () => {
    const hooks = new ToolHooks();
    const crew = new Crew();
    const agent = new Agent({ role: "r" });
    const t = tool("t");
    const run = () => hooks.invoke(t, {}, { agent, crew }).then((o) => o.status);
    expect(await run()).toBe("ok");
    const offAgent = agent.before(() => false);
    expect(await run()).toBe("blocked");
    offAgent();
    expect(await run()).toBe("ok");
    const offCrew = crew.before(() => false);
    expect(await run()).toBe("blocked");
    offCrew();
    hooks.before(() => false);
    expect(await run()).toBe("blocked");
    expect(await hooks.invoke(t, {}).then((o) => o.status)).toBe("blocked");
  });

  it("does not let one agent's hooks leak into another agent's calls", async () => {
    const hooks = new ToolHooks();
    const a = new Agent({ role: "a" });
    const b = new Agent({ role: "b" });
    a.before(() => false);
    expect((await hooks.invoke(tool("t"), {}, { agent: a })).status).toBe("blocked");
    expect((await hooks.invoke(tool("t"), {}, { agent: b })).status).toBe("ok");
    expect((await hooks.invoke(tool("t"), {})).status).toBe("ok");
  });

  it("keeps crews' hooks to their own calls, and dispose() removes them", async () => {
    const hooks = new ToolHooks();
    const one = new Crew({ name: "one" });
    const two = new Crew({ name: "two" });
    one.before(() => false);
    expect((await hooks.invoke(tool("t"), {}, { crew: one })).status).toBe("blocked");
    expect((await hooks.invoke(tool("t"), {}, { crew: two })).status).toBe("ok");
    expect(one.dispose()).toBe(1);
    expect(one.disposed).toBe(true);
    expect((await hooks.invoke(tool("t"), {}, { crew: one })).status).toBe("ok");
  });

  it("rejects malformed agents, tasks and crews", () => {
    expect(() => new Agent({} as never)).toThrow(/needs a non-empty `role`/);
    expect(() => new Crew(null as never)).toThrow(/takes an options object/);
  });
});
