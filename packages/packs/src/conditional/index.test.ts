import {
  Agent,
  definePack,
  defineTool,
  type HookInfo,
  type Pack,
  Task,
  type ToolCallHookContext,
  ToolHooks,
} from "@toolware/core";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { describe, expect, it } from "vitest";
import { forAgents, forTools, unless, when } from "./index.js";

const echo = (name: string) => defineTool({ name, execute: (input: Record<string, unknown>) => ({ ...input }) });
const deleteFile = echo("delete_file");
const sendEmail = echo("send_email");
const webSearch = echo("web_search");
const readFile = echo("read_file");

const junior = new Agent({ role: "junior_agent" });
const senior = new Agent({ role: "senior_agent" });
const researcher = new Agent({ role: "researcher" });
const sensitive = new Task({ description: "Summarise the SENSITIVE merger report" });
const urgent = new Task({ description: "Urgent: tell the client about the outage" });
const routine = new Task({ description: "Weekly digest" });

const taskSays = (word: string) => (ctx: ToolCallHookContext) =>
  ctx.task?.description.toLowerCase().includes(word) ?? false;

const names = (infos: HookInfo[]) => infos.map((h) => h.name);

describe("seed: conditional hook execution", () => {
  const hooks = new ToolHooks();
  hooks.use(
    forAgents("junior_agent")
      .forTools(["delete_file", "send_email"])
      .before(function juniorLimits(ctx) {
        ctx.block(`junior agents cannot use ${ctx.toolName}`);
      }),
  );
  hooks.use(
    when(taskSays("sensitive"))
      .forTools("web_search")
      .before(function noSearchOnSensitive() {
        return false;
      }),
  );

  it("blocks delete_file and send_email for junior agents only", async () => {
    expect(await hooks.invoke(deleteFile, { path: "a" }, { agent: junior })).toMatchObject({
      status: "blocked",
      reason: "junior agents cannot use delete_file",
    });
    expect((await hooks.invoke(sendEmail, {}, { agent: junior })).status).toBe("blocked");
    expect((await hooks.invoke(readFile, {}, { agent: junior })).status).toBe("ok");
    expect((await hooks.invoke(deleteFile, {}, { agent: senior })).status).toBe("ok");
    expect((await hooks.invoke(deleteFile, {})).status).toBe("ok");
  });

  it("keeps the role and tool filters static: the hook is in no other chain and costs no predicate", () => {
    const [hook] = hooks.explain({ toolName: "delete_file", agent: junior });
    expect(hook).toMatchObject({ name: "for-agents:juniorLimits", conditional: false });
    expect(hooks.explain({ toolName: "delete_file", agent: senior })).toEqual([]);
    expect(hooks.explain({ toolName: "read_file", agent: junior })).toEqual([]);
  });

  it("blocks web_search during sensitive tasks only", async () => {
    expect((await hooks.invoke(webSearch, {}, { task: sensitive })).status).toBe("blocked");
    expect((await hooks.invoke(webSearch, {}, { task: routine })).status).toBe("ok");
    expect((await hooks.invoke(webSearch, {})).status).toBe("ok");
    expect((await hooks.invoke(readFile, {}, { task: sensitive })).status).toBe("ok");
    // The task predicate runs per call, but only in web_search chains.
    expect(names(hooks.explain({ toolName: "web_search" }))).toEqual(["when:noSearchOnSensitive"]);
    expect(hooks.explain({ toolName: "web_search" })[0]?.conditional).toBe(true);
    expect(hooks.explain({ toolName: "read_file" })).toEqual([]);
  });
});

describe("seed: context-aware input modification", () => {
  const hooks = new ToolHooks();
  hooks.use(
    forAgents("researcher")
      .forTools("web_search")
      .before(function restrictDomains(ctx) {
        ctx.toolInput.domains = ["edu", "gov", "org"];
      }),
  );
  hooks.use(
    when(taskSays("urgent"))
      .forTools("send_email")
      .before(function markUrgent(ctx) {
        ctx.toolInput.priority = "high";
      }),
  );

  it("restricts a researcher's web searches to edu, gov and org", async () => {
    const outcome = await hooks.invoke(webSearch, { query: "llm safety" }, { agent: researcher });
    expect(outcome.raw).toEqual({ query: "llm safety", domains: ["edu", "gov", "org"] });
    expect(outcome.trace).toMatchObject([{ hook: "for-agents:restrictDomains", action: "modified-input" }]);
    expect((await hooks.invoke(webSearch, { query: "x" }, { agent: junior })).raw).toEqual({ query: "x" });
  });

  it("marks e-mails of urgent tasks as high priority", async () => {
    expect((await hooks.invoke(sendEmail, { to: "c" }, { task: urgent })).raw).toEqual({ to: "c", priority: "high" });
    expect((await hooks.invoke(sendEmail, { to: "c" }, { task: routine })).raw).toEqual({ to: "c" });
    expect((await hooks.invoke(webSearch, { q: 1 }, { task: urgent })).raw).toEqual({ q: 1 });
  });
});

describe("when / unless", () => {
  it("makes a middleware conditional", async () => {
    const hooks = new ToolHooks();
    const seen: string[] = [];
    hooks.use(
      when(taskSays("urgent"), async function tagUrgent(ctx, next) {
        seen.push(`in ${ctx.toolName}`);
        await next();
        seen.push("out");
      }),
    );
    await hooks.invoke(readFile, {}, { task: routine });
    await hooks.invoke(readFile, {}, { task: urgent });
    expect(seen).toEqual(["in read_file", "out"]);
  });

  it("applies all hooks of a pack or none, deciding once per call", async () => {
    let calls = 0;
    const flipping = () => ++calls % 2 === 1; // would answer differently for the second hook
    const log: string[] = [];
    const pack = definePack({
      name: "audit",
      hooks: [
        { kind: "before", fn: () => void log.push("before") },
        { kind: "after", fn: () => void log.push("after") },
      ],
    });
    const hooks = new ToolHooks();
    hooks.use(when(flipping, pack));
    await hooks.invoke(readFile, {});
    expect(log).toEqual(["before", "after"]);
    expect(calls).toBe(1);
  });

  it("unless inverts the predicate", async () => {
    const hooks = new ToolHooks();
    const isAdmin = (ctx: ToolCallHookContext) => ctx.agent?.role === "admin";
    hooks.use(
      unless(isAdmin)
        .forTools("delete_*")
        .before(() => false),
    );
    expect((await hooks.invoke(deleteFile, {}, { agent: new Agent({ role: "admin" }) })).status).toBe("ok");
    expect((await hooks.invoke(deleteFile, {}, { agent: junior })).status).toBe("blocked");
    const viaPack = new ToolHooks();
    viaPack.use(unless(isAdmin, definePack({ name: "deny", hooks: [{ kind: "before", fn: () => false }] })));
    expect((await viaPack.invoke(readFile, {})).status).toBe("blocked");
  });

  it("a throwing predicate fails the hook under its policy: closed by default, open on request", async () => {
    const boom = () => {
      throw new Error("no task store");
    };
    const closed = new ToolHooks();
    closed.use(when(boom).before(() => undefined));
    expect(await closed.invoke(readFile, {})).toMatchObject({
      status: "blocked",
      reason: expect.stringContaining("no task store"),
    });
    const open = new ToolHooks();
    open.use(when(boom).before(() => false, { onError: "continue" }));
    expect((await open.invoke(readFile, {})).status).toBe("ok");
  });
});

describe("composing with filters already on the hooks", () => {
  const hookOf = (pack: Pack) => pack.hooks.map((h) => h.options);

  it("intersects exact names statically, and drops a hook that can never run", async () => {
    const pack = definePack({
      name: "p",
      hooks: [
        { kind: "before", fn: () => false, options: { tools: ["Delete File", "send_email"] } },
        { kind: "before", fn: () => false, options: { tools: "read_file" } },
      ],
    });
    const narrowed = forTools(["delete_file", "web_search"], pack);
    expect(hookOf(narrowed)).toEqual([{ tools: ["delete_file"] }]);
    const hooks = new ToolHooks();
    hooks.use(narrowed);
    expect((await hooks.invoke(deleteFile, {})).status).toBe("blocked");
    expect((await hooks.invoke(readFile, {})).status).toBe("ok");
    expect((await hooks.invoke(sendEmail, {})).status).toBe("ok");
  });

  it("filters exact names by globs statically; RegExps become a per-call check", async () => {
    const globbed = forTools(
      ["db_read", "web_search"],
      forTools("db_*").before(() => false),
    );
    expect(hookOf(globbed)).toEqual([{ tools: ["db_read"] }]);
    const regexped = forTools(
      /^Db/,
      forTools("db_read").before(() => false),
    );
    const [options] = hookOf(regexped);
    expect(options?.tools).toEqual(["db_read"]);
    expect(typeof options?.agents).toBe("function");
    const hooks = new ToolHooks();
    hooks.use(regexped);
    expect((await hooks.invoke(echo("DbRead"), {})).status).toBe("blocked"); // raw name matches /^Db/
    expect((await hooks.invoke(echo("db_read"), {})).status).toBe("ok");
  });

  it("puts a predicate in a free slot, and folds the agent filter when both slots are taken", async () => {
    const urgentOnly = taskSays("urgent");
    const both = when(
      urgentOnly,
      forAgents("junior_agent")
        .forTools("send_email")
        .before(() => false),
    );
    const [options] = hookOf(both);
    expect(options?.tools).toBe("send_email");
    expect(typeof options?.agents).toBe("function");
    const hooks = new ToolHooks();
    hooks.use(both);
    expect((await hooks.invoke(sendEmail, {}, { agent: junior, task: urgent })).status).toBe("blocked");
    expect((await hooks.invoke(sendEmail, {}, { agent: junior, task: routine })).status).toBe("ok");
    expect((await hooks.invoke(sendEmail, {}, { agent: senior, task: urgent })).status).toBe("ok");
    expect((await hooks.invoke(sendEmail, { task: urgent })).status).toBe("ok"); // no agent: never matches
    expect(hooks.explain({ toolName: "web_search", agent: junior })).toEqual([]);
  });

  it("ANDs with the filters given at registration", async () => {
    const hooks = new ToolHooks();
    hooks.use(
      forAgents("junior_*").before(() => false),
      { tools: "delete_file" },
    );
    expect((await hooks.invoke(deleteFile, {}, { agent: junior })).status).toBe("blocked");
    expect((await hooks.invoke(readFile, {}, { agent: junior })).status).toBe("ok");
  });

  it("keeps a pack's extras and options", async () => {
    const breaker = forTools("flaky", circuitBreaker({ failureThreshold: 1 }));
    const hooks = new ToolHooks();
    hooks.use(breaker);
    const flaky = defineTool({
      name: "flaky",
      execute: () => {
        throw new Error("503");
      },
    });
    await hooks.invoke(flaky, {});
    expect(breaker.state("flaky").state).toBe("open");
    expect(breaker.name).toBe("circuit-breaker");
    const named = when(() => true).after(() => "x", { name: "shout", priority: 5 });
    expect(hookOf(named)[0]).toMatchObject({ name: "shout", priority: 5 });
  });
});

describe("misuse", () => {
  const yes = () => true;

  it("rejects a one-parameter function where a middleware is expected", () => {
    const beforeHook = (ctx: ToolCallHookContext) => {
      ctx.block();
    };
    // @ts-expect-error a one-parameter function reads as a before-hook
    expect(() => when(yes, beforeHook)).toThrow(/without a `next` parameter; use when\(…\).before\(fn\)/);
    // @ts-expect-error same for the other entry points
    expect(() => forTools("x", beforeHook)).toThrow(/forTools\(…\)\.before/);
    // @ts-expect-error and for a before-hook returning a boolean
    expect(() => forAgents("x", (ctx: ToolCallHookContext) => ctx.toolName !== "x")).toThrow(TypeError);
  });

  it("compile errors for the wrong kind (checked by tsc), runtime errors for non-functions", () => {
    const middleware = async (_ctx: ToolCallHookContext, next: () => Promise<void>) => next();
    const typeOnly = () => {
      // @ts-expect-error a middleware is not a before-hook
      when(yes).before(middleware);
      // @ts-expect-error nor an after-hook
      when(yes).after(middleware);
      // @ts-expect-error an after-hook returns a string, not a boolean
      when(yes).after(() => false);
      // @ts-expect-error a before-hook does not return a string
      when(yes).before(() => "text");
      // @ts-expect-error forTools takes matchers, not a predicate
      forTools((ctx: ToolCallHookContext) => ctx.toolName === "x");
    };
    expect(typeof typeOnly).toBe("function");
    const pack = definePack({ name: "p", hooks: [] });
    expect(() => when(yes).before(pack as never)).toThrow(/pass a pack to .use\(\)/);
    expect(() => when(yes, 5 as never)).toThrow(/takes a pack or a middleware/);
    expect(() => when(5 as never)).toThrow("toolware/conditional: when() needs a predicate");
    expect(() => unless(undefined as never)).toThrow(/unless\(\) needs a predicate/);
    expect(() => forTools([])).toThrow(/empty list/);
    expect(() => forAgents("!!")).toThrow(/forAgents\(\) takes names, globs and RegExps, got "!!"/);
    expect(() => forAgents([{ name: "x" }] as never)).toThrow(TypeError);
    expect(forTools([deleteFile, /x/]).before(() => undefined).hooks).toHaveLength(1);
  });
});
