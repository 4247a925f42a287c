import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTool, type Tool, type ToolCallOutcome, ToolHooks, toolwareCode } from "./index.js";

// A call without hooks takes a path of its own (no context): it must resolve the outcome the chain
// would have, which a call that has a listener (and so takes the chain) shows.

function comparable(outcome: ToolCallOutcome): Omit<ToolCallOutcome, "callId"> {
  const { callId: _id, ...rest } = outcome;
  return rest;
}

async function both(tool: Tool<{ v: unknown }, unknown>, input: { v: unknown }) {
  const bare = new ToolHooks();
  const chained = new ToolHooks();
  chained.on("call:end", () => {});
  return [await bare.invoke(tool, input), await chained.invoke(tool, input)] as const;
}

const kinds = ["sync", "async", "thenable", "throws", "rejects"] as const;

function toolOf(kind: (typeof kinds)[number], value: unknown): Tool<{ v: unknown }, unknown> {
  return defineTool({
    name: "t",
    execute: (): unknown => {
      if (kind === "sync") return value;
      if (kind === "async") return Promise.resolve(value);
      // biome-ignore lint/suspicious/noThenProperty: a tool returning a thenable that is no promise is the point
      if (kind === "thenable") return { then: (ok: (v: unknown) => void) => ok(value) };
      if (kind === "throws") throw value;
      return Promise.reject(value);
    },
  });
}

describe("a call without hooks", () => {
  it("resolves the same outcome as the chain, whatever the tool returns or throws (property)", async () => {
    const values = fc.oneof(
      fc.jsonValue(),
      fc.constant(undefined),
      fc.bigInt(),
      fc.constant({ toJSON: () => ({ toJSON: "x" }) }),
      fc.constant(Object.assign(Object.create(null), { a: 1 })),
      fc.constant(
        (() => {
          const cyclic: Record<string, unknown> = {};
          cyclic.self = cyclic;
          return cyclic;
        })(),
      ),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...kinds), values, async (kind, value) => {
        const [bare, chained] = await both(toolOf(kind, value), { v: 1 });
        expect(comparable(bare)).toEqual(comparable(chained));
        expect(bare.callId).not.toBe(chained.callId);
      }),
    );
  });

  it("reports a result that cannot be formatted with a format-failed entry, and shares one frozen empty trace otherwise", async () => {
    const hooks = new ToolHooks();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad = await hooks.invoke(toolOf("async", cyclic), { v: 1 });
    expect(bad.status).toBe("error");
    expect(bad.trace.map((e) => e.action)).toEqual(["format-failed"]);
    const a = await hooks.invoke(toolOf("sync", "x"), { v: 1 });
    const b = await hooks.invoke(toolOf("sync", "y"), { v: 1 });
    expect(a.trace).toEqual([]);
    expect(Object.isFrozen(a.trace)).toBe(true);
    expect(a.callId).not.toBe(b.callId);
  });

  it("hands the tool the call id and a signal that never aborts; a given call id is kept", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "t",
      execute: (_input: object, options: { signal: AbortSignal; callId: string }) => {
        seen.push(options.callId, options.signal.aborted);
        return "ok";
      },
    });
    const outcome = await new ToolHooks().invoke(tool, {}, { callId: "sdk-1" });
    expect(outcome.callId).toBe("sdk-1");
    expect(seen).toEqual(["sdk-1", false]);
  });

  it("still nests: a tool without hooks that calls invoke synchronously goes 10,000 deep, and no further", async () => {
    const hooks = new ToolHooks();
    const tool: Tool<{ n: number }, unknown> = defineTool({
      name: "nest",
      execute: ({ n }: { n: number }): unknown =>
        n === 0
          ? "bottom"
          : hooks.invoke(tool, { n: n - 1 }).then((o) => {
              if (o.status !== "ok") throw o.error;
              return o.result;
            }),
    });
    await expect(hooks.invoke(tool, { n: 10_000 })).resolves.toMatchObject({ status: "ok", result: "bottom" });
    const refused = await hooks.invoke(tool, { n: 10_001 });
    expect(refused.status).toBe("error");
    expect(toolwareCode(refused.error)).toBe("TOOLWARE_CALL_TOO_DEEP");
  }, 60_000);
});

describe("the native promise's then, read inline by the call without hooks", () => {
  // A promise whose own `then` is a getter: read once, whatever it returns, and the outcome is the chain's.
  function promiseWithThen(value: unknown, then: () => unknown, reads: { n: number }): Promise<unknown> {
    const promise = Promise.resolve(value);
    // biome-ignore lint/suspicious/noThenProperty: an own then getter on a promise is the point
    Object.defineProperty(promise, "then", {
      get() {
        reads.n++;
        return then();
      },
    });
    return promise;
  }

  const variants: [string, () => unknown][] = [
    ["the native then", () => Promise.prototype.then],
    ["another function", () => (ok: (v: unknown) => void) => ok("other")],
    ["no function", () => 42],
    [
      "a getter that throws",
      () => {
        throw new Error("then getter");
      },
    ],
  ];
  for (const [name, then] of variants) {
    it(`${name}: read as often as through the chain (once for the native then), with the same outcome`, async () => {
      const reads = { n: 0 };
      const tool = defineTool({ name: "p", execute: () => promiseWithThen("v", then, reads) });
      const bare = await new ToolHooks().invoke(tool, {});
      const bareReads = reads.n;
      const chained = new ToolHooks();
      chained.on("call:end", () => {});
      const viaChain = await chained.invoke(tool, {});
      expect(bareReads).toBe(reads.n - bareReads);
      if (name === "the native then") expect(bareReads).toBe(1);
      expect(comparable(bare)).toEqual(comparable(viaChain));
    });
  }
});
