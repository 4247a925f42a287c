// A call an adapter refused before the chain is still a call to the ToolHooks' listeners and packs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  Agent,
  definePack,
  defineTool,
  readArguments,
  refusedOutcome,
  type ToolCallHookContext,
  ToolHooks,
  type ToolHooksEvents,
} from "./index.js";

function refuse(hooks: ToolHooks, input: unknown, bindings?: unknown) {
  try {
    readArguments("send_email", input);
  } catch (error) {
    return refusedOutcome(hooks, "test", "send_email", "call_7", error, { input, bindings });
  }
  throw new Error("readArguments accepted the input");
}

describe("refusedOutcome and the ToolHooks' events", () => {
  it("fires call:start, call:error and call:end (refused) with the call id, the bindings and a copy of the input", () => {
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "writer" });
    const seen: string[] = [];
    let end: ToolHooksEvents["call:end"] | undefined;
    hooks.on("call:start", ({ ctx }) => seen.push(`start ${ctx.callId}`));
    hooks.on("call:error", ({ ctx }) => seen.push(`error ${ctx.toolName}`));
    hooks.on("call:end", (payload) => {
      seen.push("end");
      end = payload;
    });
    const outcome = refuse(hooks, "hello", { agent });
    expect(seen).toEqual(["start call_7", "error send_email", "end"]);
    expect(outcome.status).toBe("error");
    expect(outcome.callId).toBe("call_7");
    expect(outcome.result).toMatch(/^Tool execution failed\. Tool: send_email\. Error: .*\(TOOLWARE_INVALID_INPUT\)$/);
    expect(end?.refused).toBe(true);
    expect(end?.outcome.result).toBe(outcome.result);
    expect(end?.ctx.agent).toBe(agent);
    expect(end?.ctx.toolInput).toEqual({ arguments: "hello" });
    expect(end?.ctx.toolRan).toBe(false);
  });

  it("tells no listener without `call`: the call may have been heard already", () => {
    const hooks = new ToolHooks();
    const seen: string[] = [];
    hooks.on("call:start", () => seen.push("start"));
    hooks.on("call:end", () => seen.push("end"));
    const outcome = refusedOutcome(hooks, "test", "x", "c", new Error("hook threw"));
    expect(seen).toEqual([]);
    expect(outcome.status).toBe("error");
    refusedOutcome(hooks, "test", "x", "c", new Error("bind threw"), {});
    expect(seen).toEqual(["start", "end"]);
  });

  it("never hands a listener the value that was sent, whatever it was", () => {
    const hooks = new ToolHooks();
    const inputs: unknown[] = [];
    hooks.on("call:end", ({ ctx }) => {
      inputs.push(ctx.toolInput);
    });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    let reads = 0;
    const getter = Object.defineProperty([], "0", {
      get() {
        reads++;
        return 1;
      },
      enumerable: true,
    });
    for (const input of [proxy, [1, 2], 42, null, undefined, getter]) refuse(hooks, input);
    expect(inputs).toEqual([{}, { arguments: [1, 2] }, { arguments: 42 }, { arguments: null }, {}, { arguments: [1] }]);
    expect(reads).toBe(1);
    // An object refused for another reason (a failing bind): a plain copy, bigints as strings.
    refusedOutcome(hooks, "test", "x", "c", new Error("bind failed"), { input: { n: 1n, deep: { a: [1] } } });
    expect(inputs.at(-1)).toEqual({ n: "1", deep: { a: [1] } });
  });

  it("keeps the outcome as it was for any thrown value, listened to or not", () => {
    fc.assert(
      fc.property(fc.anything(), fc.boolean(), (input, listened) => {
        const hooks = new ToolHooks();
        if (listened) hooks.on("call:end", () => {});
        const outcome = refuse(hooks, typeof input === "object" && input !== null && !Array.isArray(input) ? 1 : input);
        expect(outcome.status).toBe("error");
        expect(outcome.result).toContain("TOOLWARE_INVALID_INPUT");
      }),
    );
  });

  it("marks a schema-rejected call as refused too", async () => {
    const hooks = new ToolHooks();
    const ends: (true | undefined)[] = [];
    hooks.on("call:end", ({ refused }) => {
      ends.push(refused);
    });
    hooks.before(() => {});
    const typed = defineTool({ name: "typed", inputSchema: z.object({ city: z.string() }), execute: () => "ran" });
    await hooks.invoke(typed, { city: 1 } as never);
    await hooks.invoke(typed, { city: "Paris" });
    expect(ends).toEqual([true, undefined]);
  });
});

describe("definePack({ observe })", () => {
  const sample = (name: string, heard: string[]) =>
    definePack({
      name,
      hooks: [{ kind: "before", fn: () => {}, options: { tools: "send_*" } }],
      observe: {
        "call:end": ({ ctx }: { ctx: ToolCallHookContext }) => {
          heard.push(ctx.toolName);
        },
      },
    });

  it("listens while registered, to the calls its hooks apply to, and stops on unregister", () => {
    const hooks = new ToolHooks();
    const heard: string[] = [];
    const off = hooks.use(sample("p", heard));
    refuse(hooks, "x");
    refusedOutcome(hooks, "test", "read_file", "c", new Error("no"), {});
    expect(heard).toEqual(["send_email"]);
    off();
    refuse(hooks, "x");
    expect(heard).toEqual(["send_email"]);
  });

  it("stops when the pack is removed or the layer cleared", () => {
    const hooks = new ToolHooks();
    const heard: string[] = [];
    const pack = sample("p", heard);
    hooks.use(pack);
    hooks.remove(pack);
    refuse(hooks, "x");
    hooks.use(pack);
    hooks.clear();
    refuse(hooks, "x");
    expect(heard).toEqual([]);
  });

  it("is not added on an agent layer, which emits no call events", () => {
    const agent = new Agent({ role: "a" });
    const heard: string[] = [];
    agent.use(sample("p", heard));
    expect(agent._emitter.listenerCount("call:end")).toBe(0);
  });

  it("refuses an observe that is not an object of functions", () => {
    for (const observe of [42, null, [], { "call:end": "no" }]) {
      expect(() => definePack({ name: "bad", hooks: [], observe: observe as never })).toThrow(
        expect.objectContaining({ code: "TOOLWARE_INVALID_PACK" }),
      );
    }
  });
});
