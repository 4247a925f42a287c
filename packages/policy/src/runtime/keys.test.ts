// Rate-limit keys and loop-guard scopes by caller and upstream, through loadPolicy and ToolHooks.
import { type ToolCallHookContext, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkPolicyObject } from "../index.js";
import { loadPolicy } from "./load.js";
import { tool } from "./test-fixtures.js";

// The caller and upstream of a call, read from its input (as the gateway reads them from its call).
const who = {
  caller: (ctx: ToolCallHookContext) => (ctx.toolInput as { caller?: string }).caller,
  upstream: (ctx: ToolCallHookContext) => (ctx.toolInput as { upstream?: string }).upstream,
};

async function hooksWith(packs: Record<string, unknown>, options: Parameters<typeof loadPolicy>[1] = who) {
  const policy = await loadPolicy(
    { version: 1, default: "allow", rules: [{ name: "limited", packs }] } as never,
    options,
  );
  const hooks = new ToolHooks();
  hooks.use(policy);
  return hooks;
}

describe("rate-limit keys by caller and upstream", () => {
  it("key: upstream counts every tool and caller of an upstream together, and upstreams apart", async () => {
    const hooks = await hooksWith({ "rate-limit": { max: 2, per: "1m", key: "upstream" } });
    const call = async (name: string, input: object) => (await hooks.invoke(tool(name), input)).status;
    expect(await call("a", { upstream: "fs", caller: "alice" })).toBe("ok");
    expect(await call("b", { upstream: "fs", caller: "bob" })).toBe("ok");
    expect(await call("a", { upstream: "fs", caller: "carol" })).toBe("blocked");
    expect(await call("a", { upstream: "gh" })).toBe("ok");
    // No upstream answered: those calls share one count of their own.
    expect([await call("a", {}), await call("b", {}), await call("a", {})]).toEqual(["ok", "ok", "blocked"]);
  });

  it("key: tool+upstream counts each tool of each upstream apart", async () => {
    const hooks = await hooksWith({ "rate-limit": { max: 1, per: "1m", key: "tool+upstream" } });
    const call = async (name: string, upstream: string) => (await hooks.invoke(tool(name), { upstream })).status;
    expect([await call("a", "fs"), await call("b", "fs"), await call("a", "gh")]).toEqual(["ok", "ok", "ok"]);
    expect([await call("a", "fs"), await call("b", "gh")]).toEqual(["blocked", "ok"]);
  });

  it("key: caller+upstream never reads two different pairs as one", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(fc.string(), fc.string()),
        fc.tuple(fc.string(), fc.string()),
        async (first, second) => {
          fc.pre(first[0] !== second[0] || first[1] !== second[1]);
          const hooks = await hooksWith({ "rate-limit": { max: 1, per: "1m", key: "caller+upstream" } });
          const call = async ([caller, upstream]: [string, string]) =>
            (await hooks.invoke(tool("t"), { caller, upstream })).status;
          expect([await call(first), await call(second), await call(first)]).toEqual(["ok", "ok", "blocked"]);
        },
      ),
      {
        numRuns: 60,
        examples: [
          [
            ["a:b", ""],
            ["a", "b"],
          ],
          [
            ['a","b', "c"],
            ["a", 'b","c'],
          ],
        ],
      },
    );
  });

  it("an upstream option that throws or answers no string fails the call closed", async () => {
    for (const upstream of [
      () => {
        throw new Error("no upstream");
      },
      () => 42 as unknown as string,
    ]) {
      for (const packs of [
        { "rate-limit": { max: 5, per: "1m", key: "tool+upstream" } },
        { "loop-guard": { maxRepeats: 3, scope: "upstream", action: "block" } },
      ]) {
        const hooks = await hooksWith(packs, { upstream });
        const result = await hooks.invoke(tool("t"), {});
        expect(result.status).not.toBe("ok");
      }
    }
  });
});

describe("loop-guard scopes by caller and upstream", () => {
  it("scope: caller keeps one streak per caller, scope: caller+upstream one per caller on each upstream", async () => {
    const byCaller = await hooksWith({ "loop-guard": { maxRepeats: 2, scope: "caller", action: "block" } });
    const c = async (caller: string) => (await byCaller.invoke(tool("t"), { caller })).status;
    expect([await c("alice"), await c("bob"), await c("alice"), await c("bob")]).toEqual([
      "ok",
      "ok",
      "blocked",
      "blocked",
    ]);
    const both = await hooksWith({ "loop-guard": { maxRepeats: 2, scope: "caller+upstream", action: "block" } });
    const b = async (caller: string, upstream: string) => (await both.invoke(tool("t"), { caller, upstream })).status;
    expect([await b("alice", "fs"), await b("alice", "gh"), await b("bob", "fs"), await b("alice", "fs")]).toEqual([
      "ok",
      "ok",
      "ok",
      "blocked",
    ]);
  });

  it("the default scope still counts every caller of an agent-less call together", async () => {
    const hooks = await hooksWith({ "loop-guard": { maxRepeats: 2, action: "block" } });
    const c = async (caller: string) => (await hooks.invoke(tool("t"), { caller })).status;
    expect([await c("alice"), await c("bob")]).toEqual(["ok", "blocked"]);
  });
});

describe("the file and the options are checked strictly", () => {
  it("a misspelt key or scope value is refused with a hint", () => {
    const file = (packs: object) => ({ version: 1, default: "allow", rules: [{ name: "r", packs }] });
    expect(() => checkPolicyObject(file({ "rate-limit": { max: 1, per: "1m", key: "upstreams" } }))).toThrow(
      /rate-limit\.key: must be one of .*got "upstreams" \(did you mean "upstream"\?\)/,
    );
    expect(() => checkPolicyObject(file({ "loop-guard": { scope: "caller+upstreams" } }))).toThrow(
      /loop-guard\.scope: .*\(did you mean "caller\+upstream"\?\)/,
    );
  });

  it("a misspelt upstream option is refused with a hint; a non-function upstream is refused", async () => {
    const doc = { version: 1, default: "allow", rules: [] } as never;
    await expect(loadPolicy(doc, { upstrem: () => "x" } as never)).rejects.toThrow(/did you mean "upstream"/);
    await expect(loadPolicy(doc, { upstream: "fs" } as never)).rejects.toThrow(/`upstream` must be a function/);
  });
});
