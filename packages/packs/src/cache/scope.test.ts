import { Agent, defineTool, Task, type ToolCallHookContext, ToolHooks, toolwareCode } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { cache } from "./index.js";

// The application knows which tenant each task works for.
const tenants = new WeakMap<Task, string>();
// What the tool sees of who is calling (in an application: its session, a token).
let signedIn = "";
function taskFor(tenant: string): Task {
  const task = new Task({ description: `report for ${tenant}` });
  tenants.set(task, tenant);
  signedIn = tenant;
  return task;
}
const tenantOf = (ctx: { readonly task?: Task | undefined }) =>
  String(ctx.task === undefined ? undefined : tenants.get(ctx.task));
const scopeByTenant = (ctx: ToolCallHookContext) => tenantOf(ctx);

// A tool whose answer depends on who asks: the very case where a global cache leaks.
function accountTool() {
  const runs: string[] = [];
  const tool = defineTool({
    name: "my_account",
    execute: (_input: { field: string }) => {
      const tenant = signedIn;
      runs.push(tenant);
      return `balance of ${tenant}`;
    },
  });
  return { tool, runs };
}

describe("cache: scope", () => {
  it("global (the default) serves one tenant's result to another: the leak scope prevents", async () => {
    const { tool } = accountTool();
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: "my_account" }));
    await hooks.invoke(tool, { field: "balance" }, { task: taskFor("acme") });
    const other = await hooks.invoke(tool, { field: "balance" }, { task: taskFor("globex") });
    expect(other.result).toBe("balance of acme");
  });

  it("a scope function keeps tenants apart and still shares within one tenant", async () => {
    const { tool, runs } = accountTool();
    const hooks = new ToolHooks();
    const c = cache({ tools: "my_account", scope: scopeByTenant });
    hooks.use(c);
    const a1 = await hooks.invoke(tool, { field: "balance" }, { task: taskFor("acme") });
    const g1 = await hooks.invoke(tool, { field: "balance" }, { task: taskFor("globex") });
    const a2 = await hooks.invoke(tool, { field: "balance" }, { task: taskFor("acme") });
    expect([a1.result, g1.result, a2.result]).toEqual(["balance of acme", "balance of globex", "balance of acme"]);
    expect(runs).toEqual(["acme", "globex"]);
    expect(a2.status).toBe("ok");
    expect(c.stats().hits).toBe(1);
    // Invalidating one input drops it in every scope.
    expect(await c.invalidate("my_account", { field: "balance" })).toBe(2);
    await hooks.invoke(tool, { field: "balance" }, { task: taskFor("globex") });
    expect(runs).toEqual(["acme", "globex", "globex"]);
  });

  it("'agent' and 'crew' scopes key on the role and the crew name", async () => {
    const { tool, runs } = accountTool();
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: "my_account", scope: "agent" }));
    const alice = new Agent({ role: "alice" });
    const bob = new Agent({ role: "bob" });
    await hooks.invoke(tool, { field: "x" }, { agent: alice, task: taskFor("a") });
    await hooks.invoke(tool, { field: "x" }, { agent: bob, task: taskFor("b") });
    const again = await hooks.invoke(tool, { field: "x" }, { agent: alice, task: taskFor("b") });
    expect(runs).toEqual(["a", "b"]);
    expect(again.result).toBe("balance of a");
    const crewHooks = new ToolHooks();
    crewHooks.use(cache({ tools: "my_account", scope: "crew" }));
    await crewHooks.invoke(tool, { field: "x" }, { task: taskFor("c") });
    const noCrew = await crewHooks.invoke(tool, { field: "x" }, { task: taskFor("d") });
    expect(noCrew.result).toBe("balance of c");
  });

  it("a scope that throws or is not a string bypasses the cache (never shares) and is reported", async () => {
    const { tool, runs } = accountTool();
    const errors: [string, unknown][] = [];
    const hooks = new ToolHooks({ onListenerError: (where, e) => errors.push([where, e]) });
    const c = cache({ tools: "my_account", scope: () => 42 as never });
    hooks.use(c);
    await hooks.invoke(tool, { field: "x" }, { task: taskFor("a") });
    const second = await hooks.invoke(tool, { field: "x" }, { task: taskFor("b") });
    expect(second.result).toBe("balance of b");
    expect(runs).toEqual(["a", "b"]);
    expect(c.stats().bypassed).toBe(2);
    expect(errors.map(([where, e]) => `${where} ${toolwareCode(e)}`)).toEqual([
      "cache.scope TOOLWARE_INVALID_RETURN",
      "cache.scope TOOLWARE_INVALID_RETURN",
    ]);
  });

  it("refuses a scope that is not one of the choices, with a code", () => {
    for (const scope of ["tenant", null, 1, "Global"]) {
      expect(() => cache({ tools: "*", scope: scope as never })).toThrow(/`scope` must be "global", "agent", "crew"/);
      try {
        cache({ tools: "*", scope: scope as never });
      } catch (e) {
        expect(toolwareCode(e)).toBe("TOOLWARE_INVALID_OPTION");
      }
    }
  });
});
