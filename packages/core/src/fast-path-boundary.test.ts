import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Agent, Crew, defineTool, type Tool, type ToolCallOutcome, ToolHooks, toolwareCode } from "./index.js";

// The call boundary, the events, the input schema, the caller's signal, wrap() and the callId
// binding: a call with no hook must behave as the same call with one hook that does nothing.

type Mode = "invoke" | "wrap";
type SignalCase = "none" | "live" | "abortedBefore" | "abortedDuring";
type Schema = "none" | "passes" | "fails" | "failsAsync" | "transforms";
type Behaviour = "ok" | "object" | "throws" | "rejects";

interface Case {
  mode: Mode;
  signal: SignalCase;
  schema: Schema;
  behaviour: Behaviour;
  callId: boolean;
  listen: boolean;
  hook: "none" | "before" | "after" | "middleware";
}

function schemaOf(kind: Schema) {
  if (kind === "none") return undefined;
  return {
    "~standard": {
      version: 1 as const,
      vendor: "probe",
      validate: (value: unknown) => {
        if (kind === "fails") return { issues: [{ message: "bad input" }] };
        if (kind === "failsAsync") return Promise.resolve({ issues: [{ message: "bad input" }] });
        if (kind === "transforms") return { value: { ...(value as object), added: true } };
        return { value };
      },
    },
  };
}

function toolFor(c: Case, seen: unknown[]): Tool<object, unknown> {
  return defineTool({
    name: "probe",
    inputSchema: schemaOf(c.schema) as never,
    execute: async (input: object, { signal, callId }) => {
      seen.push({ input, aborted: signal.aborted, callId });
      if (c.signal === "abortedDuring") {
        await new Promise((r) => setTimeout(r, 1));
        if (signal.aborted) throw signal.reason;
      }
      if (c.behaviour === "throws") throw new RangeError("boom");
      if (c.behaviour === "rejects") return Promise.reject("nope");
      if (c.behaviour === "object") return { n: 1n };
      return "fine";
    },
  });
}

interface Observed {
  settled: { status: string; result: string; code: string | undefined } | { rejected: string | undefined };
  events: string[];
  seen: unknown[];
  callIdOk: boolean;
}

async function run(c: Case): Promise<Observed> {
  const hooks = new ToolHooks();
  if (c.hook === "before") hooks.before(() => undefined);
  if (c.hook === "after") hooks.after(() => undefined);
  if (c.hook === "middleware") hooks.use((_ctx, next) => next());
  const events: string[] = [];
  if (c.listen) {
    for (const e of ["call:start", "call:end", "call:error", "call:blocked"] as const) {
      hooks.on(e, () => events.push(e));
    }
  }
  const seen: unknown[] = [];
  const tool = toolFor(c, seen);
  const controller = new AbortController();
  if (c.signal === "abortedBefore") controller.abort(new Error("stop"));
  const signal = c.signal === "none" ? undefined : controller.signal;
  if (c.signal === "abortedDuring") setTimeout(() => controller.abort(new Error("stop")), 0);
  const callId = c.callId && c.mode === "invoke" ? "call-1" : undefined;
  let settled: Observed["settled"];
  let callIdOk = true;
  try {
    if (c.mode === "invoke") {
      const o: ToolCallOutcome = await hooks.invoke(tool, { q: 1 }, { signal, callId });
      if (callId !== undefined) callIdOk = o.callId === callId;
      settled = { status: o.status, result: o.result, code: toolwareCode(o.error) };
    } else {
      const result = await hooks.wrap(tool).execute({ q: 1 }, { signal });
      settled = { status: "-", result, code: undefined };
    }
  } catch (error) {
    settled = { rejected: toolwareCode(error) ?? String(error) };
  }
  return { settled, events, seen: seen.map((s) => ({ ...(s as object), callId: undefined })), callIdOk };
}

const cases = fc.record<Omit<Case, "hook">>({
  mode: fc.constantFrom("invoke", "wrap"),
  signal: fc.constantFrom("none", "live", "abortedBefore", "abortedDuring"),
  schema: fc.constantFrom("none", "passes", "fails", "failsAsync", "transforms"),
  behaviour: fc.constantFrom("ok", "object", "throws", "rejects"),
  callId: fc.boolean(),
  listen: fc.boolean(),
});

describe("a call with no hook and with one no-op hook", () => {
  it("settles alike, fires the same events, validates and cancels alike (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        cases,
        fc.constantFrom("before", "after", "middleware") as fc.Arbitrary<Case["hook"]>,
        async (c, hook) => {
          const bare = await run({ ...c, hook: "none" });
          const hooked = await run({ ...c, hook });
          expect(bare.settled).toEqual(hooked.settled);
          expect(bare.events).toEqual(hooked.events);
          expect(bare.seen).toEqual(hooked.seen);
          expect(bare.callIdOk && hooked.callIdOk).toBe(true);
          expect(bare.settled).not.toHaveProperty("rejected");
        },
      ),
      { numRuns: 150 },
    );
  });

  it("refuses bad bindings, input and tools with the same codes", async () => {
    const tool = defineTool({ name: "t", execute: () => "x" });
    const bad: [unknown, unknown, unknown][] = [
      [tool, [], undefined],
      [tool, new Map(), undefined],
      [tool, 5, undefined],
      [tool, {}, { agnet: 1 }],
      [tool, {}, { signal: {} }],
      [tool, {}, { callId: "" }],
      [tool, {}, { callId: "a\nb" }],
      [tool, {}, []],
      [{ name: "", execute: () => 1 }, {}, undefined],
      [{ name: "n", execute: 1 }, {}, undefined],
      [{ name: "n", execute: () => 1, destructive: "yes" }, {}, undefined],
      [null, {}, undefined],
    ];
    for (const [t, input, bindings] of bad) {
      const codes: (string | undefined)[] = [];
      for (const withHook of [false, true]) {
        const hooks = new ToolHooks();
        if (withHook) hooks.before(() => undefined);
        const p = hooks.invoke(t as Tool<object, unknown>, input as object, bindings as never);
        codes.push(
          await p.then(
            () => "resolved",
            (e: unknown) => toolwareCode(e),
          ),
        );
      }
      expect(codes[0]).toMatch(/^TOOLWARE_/);
      expect(codes[0]).toBe(codes[1]);
    }
  });

  it("refuses a hand-made tool that changed into a bad one since its last call", async () => {
    const tool: { name: string; execute: unknown } = { name: "hand", execute: () => "x" };
    for (const withHook of [false, true]) {
      const hooks = new ToolHooks();
      if (withHook) hooks.before(() => undefined);
      tool.execute = () => "x";
      expect((await hooks.invoke(tool as Tool<object, unknown>)).status).toBe("ok");
      tool.execute = "not a function";
      const code = await hooks.invoke(tool as Tool<object, unknown>).then(
        () => "resolved",
        (e: unknown) => toolwareCode(e),
      );
      expect(code).toBe("TOOLWARE_INVALID_TOOL");
    }
  });

  it("refuses a Proxy of an agent or crew, or an object made from one, as bad bindings", async () => {
    const tool = defineTool({ name: "t", execute: () => "x" });
    const agent = new Agent({ role: "writer" });
    const crew = new Crew({ agents: [agent] });
    const throwing = {
      get: () => {
        throw new Error("get trap");
      },
    };
    const impostors: [string, unknown][] = [
      ["agent", new Proxy(agent, throwing)],
      ["agent", new Proxy(agent, { get: (t, k) => (k === "_regs" ? 5 : Reflect.get(t, k)) })],
      ["agent", new Proxy(agent, {})],
      ["agent", Object.create(agent)],
      ["crew", new Proxy(crew, throwing)],
      ["crew", Object.create(crew)],
    ];
    for (const [key, value] of impostors) {
      for (const withHook of [false, true]) {
        const hooks = new ToolHooks();
        if (withHook) hooks.before(() => undefined);
        const code = await hooks.invoke(tool, {}, { [key]: value }).then(
          () => "resolved",
          (e: unknown) => toolwareCode(e),
        );
        expect(code).toBe("TOOLWARE_INVALID_BINDINGS");
        expect(() => hooks.wrap(tool, { [key]: value })).toThrow(
          expect.objectContaining({ code: "TOOLWARE_INVALID_BINDINGS" }),
        );
        expect(() => hooks.explain({ toolName: "t", [key]: value })).toThrow(
          expect.objectContaining({ code: "TOOLWARE_INVALID_ARGUMENT" }),
        );
      }
    }
    // A subclass is an agent (its brand comes with the constructor).
    class Writer extends Agent {}
    expect((await new ToolHooks().invoke(tool, {}, { agent: new Writer({ role: "w" }) })).status).toBe("ok");
  });

  it("refuses a tool or signal whose fields cannot be read with a code, not with the getter's error", async () => {
    const boom = () => {
      throw new Error("getter");
    };
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    const tools: unknown[] = [
      new Proxy({ name: "p", execute: () => 1 }, { get: boom }),
      revocable.proxy,
      Object.defineProperty({ name: "d", execute: () => 1 }, "description", { get: boom, enumerable: true }),
      Object.defineProperty({ name: "s", execute: () => 1 }, "inputSchema", { get: boom, enumerable: true }),
    ];
    const good = defineTool({ name: "t", execute: () => 1 });
    const controller = new AbortController();
    for (const withHook of [false, true]) {
      const hooks = new ToolHooks();
      if (withHook) hooks.before(() => undefined);
      for (const tool of tools) {
        const code = await hooks.invoke(tool as Tool<object, unknown>, {}).then(
          () => "resolved",
          (e: unknown) => toolwareCode(e),
        );
        expect(code).toBe("TOOLWARE_INVALID_TOOL");
        expect(() => hooks.wrap(tool as Tool<object, unknown>)).toThrow(
          expect.objectContaining({ code: "TOOLWARE_INVALID_TOOL" }),
        );
      }
      const signal = new Proxy(controller.signal, { get: boom });
      const code = await hooks.invoke(good, {}, { signal }).then(
        () => "resolved",
        (e: unknown) => toolwareCode(e),
      );
      expect(code).toBe("TOOLWARE_INVALID_BINDINGS");
      // A Proxy that forwards is a signal still.
      expect((await hooks.invoke(good, {}, { signal: new Proxy(controller.signal, {}) })).status).toBe("ok");
    }
  });
});
