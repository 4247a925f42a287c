import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { defineTool, type Tool, type ToolCallOutcome, ToolHooks, toolwareCode } from "./index.js";

// A call with no hook takes a path of its own (no context, no chain). Whatever the tool does, its
// outcome must be the one the same call gets with one hook that does nothing.

type Shape = { status: string; result: string; code: string | undefined; errorType: string };

function shape(o: ToolCallOutcome): Shape {
  // The error itself may be hostile (a revoked proxy): compare what can be read of it safely.
  return { status: o.status, result: o.result, code: toolwareCode(o.error), errorType: typeof o.error };
}

type Settled = { ok: Shape } | { rejected: string | undefined };

async function settled(p: Promise<ToolCallOutcome>): Promise<Settled> {
  try {
    return { ok: shape(await p) };
  } catch (error) {
    return { rejected: toolwareCode(error) ?? String(error) };
  }
}

const noops = {
  before: (h: ToolHooks) => h.before(() => undefined),
  after: (h: ToolHooks) => h.after(() => undefined),
  middleware: (h: ToolHooks) => h.use((_ctx, next) => next()),
} as const;

async function compare(tool: Tool<object, unknown>, input?: object): Promise<Settled> {
  const bare = await settled(new ToolHooks().invoke(tool, input));
  for (const add of Object.values(noops)) {
    const hooked = new ToolHooks();
    add(hooked);
    expect(await settled(hooked.invoke(tool, input))).toEqual(bare);
  }
  return bare;
}

function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

// Values whose every inspection may throw.
const hostile: Record<string, () => unknown> = {
  revokedProxy: revoked,
  trapsThrow: () =>
    new Proxy(
      {},
      {
        get: () => {
          throw new Error("get trap");
        },
        getPrototypeOf: () => {
          throw new Error("proto trap");
        },
        ownKeys: () => {
          throw new Error("keys trap");
        },
      },
    ),
  thenGetterThrows: () =>
    // biome-ignore lint/suspicious/noThenProperty: a then getter that throws is the point
    Object.defineProperty({}, "then", {
      get: () => {
        throw new Error("then getter");
      },
    }),
  thenThrows: () => ({
    // biome-ignore lint/suspicious/noThenProperty: a thenable that throws is the point
    then: () => {
      throw revoked();
    },
  }),
  symbol: () => Symbol("s"),
  bigint: () => 12n,
  toJsonThrows: () => ({
    toJSON: () => {
      throw new Error("toJSON");
    },
  }),
  toStringThrows: () =>
    Object.assign(Object.create(null), {
      toString: () => {
        throw new Error("toString");
      },
    }),
  messageGetterThrows: () =>
    Object.defineProperty(new Error("x"), "message", {
      get: () => {
        throw revoked();
      },
    }),
  cycle: () => {
    const o: Record<string, unknown> = {};
    o.self = o;
    return o;
  },
};

describe("0 hooks vs one no-op hook", () => {
  for (const [name, make] of Object.entries(hostile)) {
    for (const how of ["returns", "resolves", "throws", "rejects"] as const) {
      it(`a tool that ${how} ${name} settles the same, and never rejects`, async () => {
        const tool = defineTool({
          name: "t",
          execute: (): unknown => {
            const v = make();
            if (how === "returns") return v;
            if (how === "resolves") return Promise.resolve().then(() => v);
            if (how === "throws") throw v;
            return Promise.reject(v);
          },
        });
        const bare = await compare(tool);
        expect(bare).toHaveProperty("ok");
      });
    }
  }

  it("a formatResult that throws a hostile value or returns one settles the same (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(hostile)), fc.boolean(), async (key, throws) => {
        const tool = defineTool({
          name: "f",
          execute: () => ({ a: 1 }),
          formatResult: (): string => {
            const v = (hostile[key] as () => unknown)();
            if (throws) throw v;
            return v as string;
          },
        });
        const bare = await compare(tool);
        expect(bare).toHaveProperty("ok");
      }),
      { numRuns: 40 },
    );
  });

  it("any JSON value, returned or thrown, sync or async, settles the same (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom("sync", "async", "throw", "reject"), async (v, how) => {
        const tool = defineTool({
          name: "j",
          execute: (): unknown => {
            if (how === "sync") return v;
            if (how === "async") return Promise.resolve(v);
            if (how === "throw") throw v;
            return Promise.reject(v);
          },
        });
        await compare(tool);
      }),
      { numRuns: 60 },
    );
  });
});
