import { defineTool, type ToolCallHookContext, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { type LoopEvent, loopGuard } from "./index.js";

const search = defineTool({ name: "search", execute: () => "found" });
const byWho = (ctx: ToolCallHookContext) => (ctx.toolInput as { who: string }).who;

describe("loopGuard: key names the scope of each call", () => {
  it("keeps one streak per name, and names it in the event", async () => {
    const events: LoopEvent[] = [];
    const hooks = new ToolHooks();
    const guard = loopGuard({ maxRepeats: 2, key: byWho, action: "block", onWarn: (e) => events.push(e) });
    hooks.use(guard);
    const call = async (who: string) => (await hooks.invoke(search, { who })).status;
    expect([await call("alice"), await call("bob"), await call("alice"), await call("bob")]).toEqual([
      "ok",
      "ok",
      "blocked",
      "blocked",
    ]);
    expect(events.map((e) => [e.scope, e.scopeName])).toEqual([
      ["key", "alice"],
      ["key", "bob"],
    ]);
    expect(guard.history("alice").map((e) => e.toolName)).toEqual(["search"]);
    guard.reset("alice");
    expect(guard.history("alice")).toEqual([]);
    expect(await call("alice")).toBe("ok");
    expect(await call("bob")).toBe("blocked");
    expect(await call("")).toBe("ok");
    expect(events.at(-1)?.scopeName).toBe("bob");
  });

  it("a key that throws or answers no string blocks the call when the guard blocks, and warns otherwise", async () => {
    for (const key of [
      () => {
        throw new Error("who?");
      },
      () => 7 as unknown as string,
    ]) {
      const blocking = new ToolHooks();
      blocking.use(loopGuard({ key, action: "block" }));
      expect((await blocking.invoke(search, {})).status).toBe("blocked");
      const warning = new ToolHooks();
      warning.use(loopGuard({ key }));
      expect((await warning.invoke(search, {})).status).toBe("ok");
    }
  });

  it("forgets the least recently used names past 10,000, keeping memory bounded", async () => {
    const hooks = new ToolHooks();
    const guard = loopGuard({ maxRepeats: 2, key: byWho, action: "block", onWarn: () => {} });
    hooks.use(guard);
    expect((await hooks.invoke(search, { who: "first" })).status).toBe("ok");
    expect((await hooks.invoke(search, { who: "kept" })).status).toBe("ok");
    for (let i = 0; i < 9_999; i++) await hooks.invoke(search, { who: `n${i}` });
    // "kept" is used again before "first" falls out: the oldest name goes first.
    expect((await hooks.invoke(search, { who: "kept" })).status).toBe("blocked");
    await hooks.invoke(search, { who: "one-more" });
    expect((await hooks.invoke(search, { who: "first" })).status).toBe("ok");
  });

  it("without key, a name given to history() or reset() reads as no agent", async () => {
    const hooks = new ToolHooks();
    const guard = loopGuard({ maxRepeats: 2, action: "block", onWarn: () => {} });
    hooks.use(guard);
    await hooks.invoke(search, {});
    expect(guard.history("alice")).toEqual(guard.history());
    expect(guard.history("alice")).toHaveLength(1);
    guard.reset("alice");
    expect(guard.history()).toEqual([]);
  });

  it("refuses scope and key together, and a key that is no function", () => {
    expect(() => loopGuard({ key: byWho, scope: "crew" })).toThrow(/set `scope` or `key`, not both/);
    expect(() => loopGuard({ key: "caller" as never })).toThrow(/`key` must be a function/);
    expect(() => loopGuard({ kye: byWho } as never)).toThrow(/did you mean `key`/);
  });
});
