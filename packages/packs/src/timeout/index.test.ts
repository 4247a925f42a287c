import { defineTool, ToolHooks, ToolwareError, toolwareCode } from "@toolware/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ToolTimeoutError, timeout } from "./index.js";

// A tool that honours its signal: it rejects with the abort reason.
function sleeper(name: string, ms: number, seen: AbortSignal[] = []) {
  return defineTool({
    name,
    execute: (_input, { signal }) =>
      new Promise<string>((resolve, reject) => {
        seen.push(signal);
        const t = setTimeout(() => resolve(`${name} done`), ms);
        signal.addEventListener("abort", () => {
          clearTimeout(t);
          reject(signal.reason);
        });
      }),
  });
}

// A tool that never settles and never looks at its signal.
const stubborn = defineTool({ name: "stubborn", execute: () => new Promise<never>(() => {}) });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("timeout", () => {
  it("aborts a tool that runs too long and ends the call with a readable error", async () => {
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 100 }));
    const seen: AbortSignal[] = [];
    const pending = hooks.invoke(sleeper("slow_api", 1_000, seen), {});
    await vi.advanceTimersByTimeAsync(100);
    const outcome = await pending;
    expect(outcome.status).toBe("error");
    expect(outcome.result).toBe("Tool execution failed. Tool: slow_api. Error: slow_api timed out after 100 ms");
    expect(outcome.error).toBeInstanceOf(ToolTimeoutError);
    expect(outcome.error).toBeInstanceOf(ToolwareError);
    expect(outcome.error).toMatchObject({ toolName: "slow_api", timeoutMs: 100 });
    expect(seen[0]?.aborted).toBe(true);
    expect(seen[0]?.reason).toBe(outcome.error);
  });

  it("does not hang on a tool that ignores its signal", async () => {
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 50 }));
    const pending = hooks.invoke(stubborn, {});
    await vi.advanceTimersByTimeAsync(50);
    await expect(pending).resolves.toMatchObject({ status: "error", error: expect.any(ToolTimeoutError) });
  });

  it("lets a fast tool through untouched and leaves no timer behind", async () => {
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 100 }));
    const pending = hooks.invoke(sleeper("fast", 99), {});
    await vi.advanceTimersByTimeAsync(99);
    await expect(pending).resolves.toMatchObject({ status: "ok", result: "fast done" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes a tool's own error through and clears the timer", async () => {
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 100 }));
    const broken = defineTool({
      name: "broken",
      execute: () => {
        throw new Error("disk full");
      },
    });
    const outcome = await hooks.invoke(broken, {});
    expect(outcome).toMatchObject({ status: "error", result: "Tool execution failed. Tool: broken. Error: disk full" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("bounds only the tool: slow hooks do not count", async () => {
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 100 }));
    hooks.before(() => new Promise<void>((resolve) => setTimeout(resolve, 500)));
    hooks.after(() => new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 500)));
    const pending = hooks.invoke(sleeper("quick", 80), {});
    await vi.advanceTimersByTimeAsync(1_100);
    await expect(pending).resolves.toMatchObject({ status: "ok", result: "quick done" });
  });

  it("follows the caller's signal, even for a tool that ignores it", async () => {
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 10_000 }));
    const controller = new AbortController();
    const pending = hooks.invoke(stubborn, {}, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error("user cancelled"));
    const outcome = await pending;
    expect(outcome).toMatchObject({ status: "error", result: expect.stringContaining("user cancelled") });
    expect(outcome.error).not.toBeInstanceOf(ToolTimeoutError);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("does not start the tool when the caller already aborted", async () => {
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 100 }));
    const execute = vi.fn(() => "ran");
    const outcome = await hooks.invoke(defineTool({ name: "t", execute }), {}, { signal: AbortSignal.abort("gone") });
    expect(outcome).toMatchObject({ status: "error", error: "gone" });
    expect(execute).not.toHaveBeenCalled();
  });

  it("follows a signal an earlier hook linked", async () => {
    const hooks = new ToolHooks();
    const extra = new AbortController();
    hooks.before((ctx) => ctx.linkSignal(extra.signal));
    hooks.use(timeout({ ms: 10_000 }));
    const seen: AbortSignal[] = [];
    const pending = hooks.invoke(sleeper("t", 20_000, seen), {});
    await vi.advanceTimersByTimeAsync(5);
    extra.abort("linked");
    await expect(pending).resolves.toMatchObject({ status: "error", error: "linked" });
    expect(seen[0]?.reason).toBe("linked");
  });

  it("applies per-tool limits and a default", async () => {
    const hooks = new ToolHooks();
    const pack = timeout({ ms: { default: 300, perTool: { "Web Search": 100 } } });
    hooks.use(pack);
    expect(pack.limitFor("web_search")).toBe(100);
    expect(pack.limitFor("other")).toBe(300);
    const search = hooks.invoke(sleeper("web_search", 200), {});
    const other = hooks.invoke(sleeper("other", 200), {});
    await vi.advanceTimersByTimeAsync(200);
    await expect(search).resolves.toMatchObject({ status: "error", result: expect.stringContaining("after 100 ms") });
    await expect(other).resolves.toMatchObject({ status: "ok" });
  });

  it("without a default, leaves unlisted tools out of the chain", async () => {
    const hooks = new ToolHooks();
    const pack = timeout({ ms: { perTool: { web_search: 100 } } });
    hooks.use(pack);
    expect(pack.limitFor("other")).toBeUndefined();
    expect(hooks.explain({ toolName: "other" })).toHaveLength(0);
    expect(hooks.explain({ toolName: "web_search" }).map((h) => h.name)).toEqual(["timeout:limitToolTime"]);
    const pending = hooks.invoke(sleeper("other", 1_000), {});
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(pending).resolves.toMatchObject({ status: "ok" });
  });

  it("honours the tools filter", async () => {
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 100, tools: "db_*" }));
    const db = hooks.invoke(sleeper("db_query", 200), {});
    const web = hooks.invoke(sleeper("web", 200), {});
    await vi.advanceTimersByTimeAsync(200);
    await expect(db).resolves.toMatchObject({ status: "error" });
    await expect(web).resolves.toMatchObject({ status: "ok" });
  });

  it("uses a custom message", async () => {
    const hooks = new ToolHooks();
    hooks.use(
      timeout({ ms: 10, message: (tool, ms) => `${tool} gave no answer in ${ms / 1000}s; try a narrower query` }),
    );
    const pending = hooks.invoke(stubborn, {});
    await vi.advanceTimersByTimeAsync(10);
    expect((await pending).result).toBe(
      "Tool execution failed. Tool: stubborn. Error: stubborn gave no answer in 0.01s; try a narrower query",
    );
    const fixed = new ToolHooks();
    fixed.use(timeout({ ms: 10, message: "too slow" }));
    const again = fixed.invoke(stubborn, {});
    await vi.advanceTimersByTimeAsync(10);
    expect((await again).result).toMatch(/Error: too slow$/);
  });

  it("nested limits: the tool's signal follows the outer one too", async () => {
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: 50, message: "outer" }));
    hooks.use(timeout({ ms: 500, message: "inner" }));
    const seen: AbortSignal[] = [];
    const pending = hooks.invoke(sleeper("t", 1_000, seen), {});
    await vi.advanceTimersByTimeAsync(50);
    const outcome = await pending;
    expect(outcome.result).toMatch(/Error: outer$/);
    expect(seen[0]?.reason).toMatchObject({ message: "outer" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects bad options eagerly", () => {
    expect(() => timeout(undefined as never)).toThrow(/^toolware\/timeout: /);
    expect(() => timeout({ ms: 0 })).toThrow("toolware/timeout: `ms` must be a positive");
    expect(() => timeout({ ms: Number.POSITIVE_INFINITY })).toThrow(TypeError);
    expect(() => timeout({ ms: "5s" as never })).toThrow(/must be a number or/);
    expect(() => timeout({ ms: {} })).toThrow(/needs a `default` or at least one `perTool`/);
    expect(() => timeout({ ms: { perTool: { x: -1 } } })).toThrow(/ms.perTool.x/);
    expect(() => timeout({ ms: { perTool: { "db_*": 10 } } })).toThrow(/exact tool names/);
    expect(() => timeout({ ms: 10, message: 3 as never })).toThrow(/`message` must be/);
  });

  it("gives every option mistake a code, and refuses unknown keys (a typo must not widen the limit)", () => {
    const codeOf = (make: () => unknown): unknown => {
      try {
        make();
      } catch (error) {
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message).toMatch(/^toolware\/timeout: /);
        return toolwareCode(error);
      }
      return "did not throw";
    };
    expect(codeOf(() => timeout({ ms: 0 }))).toBe("TOOLWARE_INVALID_OPTION");
    expect(codeOf(() => timeout({ ms: {} }))).toBe("TOOLWARE_INVALID_OPTION");
    expect(codeOf(() => timeout({ ms: 10, tool: "web_search" } as never))).toBe("TOOLWARE_UNKNOWN_OPTION");
    expect(() => timeout({ ms: 10, tool: "web_search" } as never)).toThrow(
      "toolware/timeout: unknown option `tool` (expected one of: ms, tools, message)",
    );
    expect(codeOf(() => timeout({ ms: { defualt: 10 } as never }))).toBe("TOOLWARE_UNKNOWN_OPTION");
    expect(() => timeout({ ms: { defualt: 10 } as never })).toThrow("unknown option `ms.defualt`");
  });
});
