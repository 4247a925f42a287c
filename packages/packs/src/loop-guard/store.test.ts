import { Agent, defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { type LoopGuardStore, loopGuard, memoryLoopGuardStore } from "./index.js";

const search = defineTool({ name: "search", execute: () => "r" });

describe("loop-guard: store", () => {
  it("guards sharing one store count the same agent's calls together", async () => {
    const store = memoryLoopGuardStore();
    const agent = new Agent({ role: "researcher" });
    const one = new ToolHooks();
    one.use(loopGuard({ maxRepeats: 3, action: "block", store, onWarn: () => {} }));
    const two = new ToolHooks();
    const guard = loopGuard({ maxRepeats: 3, action: "block", store, onWarn: () => {} });
    two.use(guard);
    await one.invoke(search, {}, { agent });
    await two.invoke(search, {}, { agent });
    const third = await one.invoke(search, {}, { agent });
    expect(third.status).toBe("blocked");
    expect(third.reason).toMatch(/called 3 times in a row/);
    expect(guard.history(agent).map((e) => e.toolName)).toEqual(["search", "search"]);
    guard.reset(agent);
    expect((await two.invoke(search, {}, { agent })).status).toBe("ok");
  });

  it("a failing store blocks with a blocking guard and lets calls through with a warning one", async () => {
    const broken: LoopGuardStore = {
      observe: () => Promise.reject(new Error("store down")),
      history: () => [],
      reset: () => undefined,
    };
    const blocking = new ToolHooks();
    blocking.use(loopGuard({ maxRepeats: 3, action: "block", store: broken }));
    const out = await blocking.invoke(search, {});
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(/store down/);
    const warning = new ToolHooks({ onHookError: "block" });
    warning.use(loopGuard({ maxRepeats: 3, store: broken }));
    expect((await warning.invoke(search, {})).status).toBe("ok");
  });

  it("refuses a store without its methods", () => {
    for (const store of [null, {}, { observe() {} }]) {
      try {
        loopGuard({ store: store as never });
        expect.unreachable();
      } catch (e) {
        expect(toolwareCode(e)).toBe("TOOLWARE_INVALID_OPTION");
        expect(String(e)).toMatch(/`store` must implement observe, history, reset/);
      }
    }
  });
});
