// docs/packs/approval.md: "runs the tool only on an explicit yes"; "A store that cannot be read blocks the call";
// parseAnswer: "Only `approve: true` approves; `input` is checked like an edit; a throw or a malformed result denies".
import { defineTool, scriptedHumanInput, ToolHooks, toolwareCode } from "@toolware/core";
import { type ApprovalStore, approval } from "@toolware/packs/approval";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";

function sender() {
  const sent: unknown[] = [];
  const tool = defineTool({
    name: "send_email",
    execute: (input: Record<string, unknown>) => {
      sent.push({ ...input });
      return "sent";
    },
  });
  return { tool, sent };
}

function storeAnswering(answer: unknown): ApprovalStore {
  return {
    get: () => answer as boolean,
    set: () => undefined,
    clear: () => undefined,
    count: () => 0,
  };
}

describe("approval: what a custom store's get() may return", () => {
  it("a remembered true approves without asking, false denies without asking", async () => {
    for (const [answer, status] of [
      [true, "ok"],
      [false, "blocked"],
    ] as const) {
      const { tool, sent } = sender();
      const hooks = new ToolHooks({ humanInput: scriptedHumanInput([]) });
      hooks.use(approval({ remember: "tool", store: storeAnswering(answer) }));
      const out = await hooks.invoke(tool, { to: "a@example.com" });
      expect(out.status).toBe(status);
      expect(sent.length).toBe(status === "ok" ? 1 : 0);
    }
  });

  it("anything but true, false or undefined is an unreadable store: the call is blocked, the tool never runs", async () => {
    const odd = fc.oneof(
      fc.constantFrom("true", "false", "1", "0", "yes", "", null, 0, 1, Number.NaN, {}, [], [true]),
      fc.string(),
      fc.integer(),
      fc.object(),
    );
    await fc.assert(
      fc.asyncProperty(odd, async (answer) => {
        const { tool, sent } = sender();
        // A human who would say yes: the store's odd answer must not be taken for one either way.
        const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes"]) });
        hooks.use(approval({ remember: "tool+input", store: storeAnswering(answer) }));
        const out = await hooks.invoke(tool, { to: "a@example.com" });
        expect(out.status).toBe("blocked");
        expect(sent).toEqual([]);
        expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_RETURN");
      }),
      { numRuns: 60 },
    );
  });

  it("a store resolving a promise of an odd value blocks too", async () => {
    const { tool, sent } = sender();
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes"]) });
    hooks.use(
      approval({ remember: "tool", store: { ...storeAnswering(undefined), get: async () => "true" as never } }),
    );
    expect((await hooks.invoke(tool, {})).status).toBe("blocked");
    expect(sent).toEqual([]);
  });
});

describe("approval: parseAnswer's result is read once", () => {
  it("the edit checked is the edit the tool gets, even behind a getter", async () => {
    const { tool, sent } = sender();
    let reads = 0;
    const answer = {
      approve: true,
      get input() {
        reads++;
        // A later read would hand over a value no edit may hold.
        return reads === 1 ? { to: "team@example.com" } : { to: () => "evil@example.com" };
      },
    };
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["ok"]) });
    hooks.use(approval({ parseAnswer: () => answer }));
    const out = await hooks.invoke(tool, { to: "all@example.com" });
    expect(out.status).toBe("ok");
    expect(sent).toEqual([{ to: "team@example.com" }]);
  });

  it("a getter that throws while the answer is read denies, and names parseAnswer", async () => {
    const { tool, sent } = sender();
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes"]) });
    const answer = {
      get approve(): boolean {
        throw new Error("getter");
      },
    };
    hooks.use(approval({ parseAnswer: () => answer }));
    const out = await hooks.invoke(tool, {});
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(/could not be read: parseAnswer failed: getter/);
    expect(sent).toEqual([]);
  });

  it("only approve === true approves, whatever else parseAnswer returns", async () => {
    const notTrue = fc.oneof(
      fc.constantFrom(1, "true", "yes", [true], { valueOf: () => true }, null, undefined, false, Number.NaN),
      fc.anything(),
    );
    await fc.assert(
      fc.asyncProperty(notTrue, async (approve) => {
        fc.pre(approve !== true);
        const { tool, sent } = sender();
        const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes"]) });
        hooks.use(approval({ parseAnswer: () => ({ approve }) as never }));
        expect((await hooks.invoke(tool, {})).status).toBe("blocked");
        expect(sent).toEqual([]);
      }),
      { numRuns: 80 },
    );
  });
});

describe("approval: the input the human approves", () => {
  it("an input held by a getter (at any depth) is refused before anyone is asked", async () => {
    for (const make of [
      () => {
        let reads = 0;
        return {
          get to() {
            return reads++ === 0 ? "boss@example.com" : "all@example.com";
          },
        };
      },
      () => {
        let reads = 0;
        const inner = {};
        Object.defineProperty(inner, "to", {
          enumerable: true,
          get: () => (reads++ === 0 ? "boss@example.com" : "all@example.com"),
        });
        return { message: { headers: [inner] } };
      },
    ]) {
      const { tool, sent } = sender();
      const asked: string[] = [];
      const hooks = new ToolHooks({
        humanInput: (request) => {
          asked.push(request.prompt);
          return "yes";
        },
      });
      hooks.use(approval());
      const out = await hooks.invoke(tool, make() as never);
      expect(out.status).toBe("blocked");
      expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_INPUT");
      expect(asked).toEqual([]);
      expect(sent).toEqual([]);
    }
  });
});

describe("approval: inputs that refer to themselves", () => {
  it("a cyclic input (two keys back to itself) is approved in time, as a shared sub-object is", async () => {
    const { tool, sent } = sender();
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes", "yes"]) });
    hooks.use(approval());
    const cyclic: Record<string, unknown> = { to: "a@example.com" };
    cyclic.left = cyclic;
    cyclic.right = cyclic;
    // A shared sub-object 40 levels deep: walking it as a tree would visit it 2^40 times.
    let shared: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 40; i++) shared = { a: shared, b: shared };
    const started = process.cpuUsage();
    expect((await hooks.invoke(tool, cyclic)).status).toBe("ok");
    expect((await hooks.invoke(tool, { to: "b@example.com", shared })).status).toBe("ok");
    expect(process.cpuUsage(started).user).toBeLessThan(2_000_000);
    expect(sent.length).toBe(2);
  });

  it("a getter deep inside a shared or cyclic input is still refused", async () => {
    const { tool, sent } = sender();
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes"]) });
    hooks.use(approval());
    const inner: Record<string, unknown> = {};
    Object.defineProperty(inner, "to", { get: () => "x@example.com", enumerable: true });
    const input: Record<string, unknown> = { first: inner, second: inner };
    input.self = input;
    const out = await hooks.invoke(tool, input);
    expect(out.status).toBe("blocked");
    expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_INPUT");
    expect(sent).toEqual([]);
  });
});

describe("approval: binary data in an input", () => {
  it("a buffer is not looked at byte by byte, and a getter beside its bytes is still refused", async () => {
    const { tool, sent } = sender();
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes", "yes"]) });
    hooks.use(approval({ maxInputChars: 200 }));
    // Counted rather than timed: one descriptor per byte of an uploaded file made a 2 MB input cost seconds.
    const descriptors = vi.spyOn(Object, "getOwnPropertyDescriptor");
    try {
      const out = await hooks.invoke(tool, { to: "a@example.com", data: new Uint8Array(100_000) });
      expect(out.status).toBe("ok");
      expect(descriptors.mock.calls.length).toBeLessThan(1_000);
    } finally {
      descriptors.mockRestore();
    }
    const bytes = new Uint8Array(4);
    Object.defineProperty(bytes, "to", { get: () => "x@example.com", enumerable: true });
    // A subclass claiming more elements than it has cannot make its named getter pass for one.
    class Long extends Uint8Array {
      override get length(): number {
        return 1_000;
      }
    }
    const long = new Long(4);
    Object.defineProperty(long, "to", { get: () => "x@example.com", enumerable: true });
    for (const data of [bytes, long]) {
      const out = await hooks.invoke(tool, { data });
      expect(out.status).toBe("blocked");
      expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_INPUT");
    }
    expect(sent.length).toBe(1);
  });
});

describe("approval: a shared object reached first through a long path", () => {
  it("a getter inside it is found through the short path too", async () => {
    const { tool, sent } = sender();
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes"]) });
    hooks.use(approval());
    // `shared` sits 60 levels down `deep` (walked first) and 1 level down `near`; its getter is 10 levels inside it.
    let inner: Record<string, unknown> = {};
    Object.defineProperty(inner, "to", { get: () => "x@example.com", enumerable: true });
    for (let i = 0; i < 10; i++) inner = { next: inner };
    const shared = inner;
    let deep: Record<string, unknown> = shared;
    for (let i = 0; i < 60; i++) deep = { next: deep };
    const out = await hooks.invoke(tool, { deep, near: shared });
    expect(out.status).toBe("blocked");
    expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_INPUT");
    expect(sent).toEqual([]);
  });
});
