// Contract (docs/context.md, requestHumanInput): `signal` stops waiting when it aborts, even when the
// provider ignores it; whatever the provider throws or answers, the promise settles with a string or
// a coded toolware error; options are read once.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  defineTool,
  type HumanInputOptions,
  type HumanInputProvider,
  HumanInputUnavailableError,
  ToolHooks,
  toolwareCode,
} from "./index.js";

const tool = defineTool({ name: "send_email", execute: () => "sent" });
const never: HumanInputProvider = () => new Promise<string>(() => undefined);

/** Asks once from a before-hook; resolves to what requestHumanInput settled with, and the call's status. */
async function ask(provider: HumanInputProvider, options?: HumanInputOptions, abort?: () => void) {
  const hooks = new ToolHooks({ humanInput: provider });
  let settled: { answer?: unknown; error?: unknown } = {};
  hooks.before(async (ctx) => {
    const pending = ctx.requestHumanInput("Approve?", undefined, options);
    abort?.();
    try {
      settled = { answer: await pending };
    } catch (error) {
      settled = { error };
      throw error;
    }
  });
  const outcome = await hooks.invoke(tool, {});
  return { ...settled, status: outcome.status };
}

describe("requestHumanInput's signal", () => {
  it("stops waiting when it aborts, though the provider never looks at it", async () => {
    const controller = new AbortController();
    const r = await ask(never, { signal: controller.signal }, () => controller.abort(new Error("moved on")));
    expect(r.error).toBeInstanceOf(HumanInputUnavailableError);
    expect(toolwareCode(r.error)).toBe("TOOLWARE_HUMAN_INPUT_UNAVAILABLE");
    expect((r.error as Error).message).toBe('toolware: stopped waiting for an answer to "Approve?": moved on');
    expect(r.status).toBe("blocked");
  }, 2000);

  it("an already aborted signal, and a reason that cannot be printed, still end the wait", async () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("trap");
        },
        getPrototypeOf: () => {
          throw new Error("trap");
        },
      },
    );
    const r = await ask(never, { signal: AbortSignal.abort(hostile) });
    expect(toolwareCode(r.error)).toBe("TOOLWARE_HUMAN_INPUT_UNAVAILABLE");
    expect((r.error as Error).cause).toBe(hostile);
    expect(r.status).toBe("blocked");
  }, 2000);

  it("a provider that watches the signal settles with its own error first", async () => {
    const controller = new AbortController();
    const watching: HumanInputProvider = (request) =>
      new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(new Error("provider saw it"))));
    const r = await ask(watching, { signal: controller.signal }, () => controller.abort());
    expect((r.error as Error).message).toMatch(/the human-input provider failed: provider saw it/);
  });

  it("an answer that comes first wins, and the signal aborting later changes nothing", async () => {
    const controller = new AbortController();
    const r = await ask(() => "yes", { signal: controller.signal });
    controller.abort();
    expect(r).toEqual({ answer: "yes", status: "ok" });
  });

  it("options are read once: a signal getter that flips keeps the checked signal", async () => {
    const controller = new AbortController();
    let reads = 0;
    const options = Object.defineProperty({}, "signal", {
      get: () => (reads++ === 0 ? controller.signal : "not a signal"),
      enumerable: true,
    });
    const r = await ask(never, options, () => controller.abort());
    expect(toolwareCode(r.error)).toBe("TOOLWARE_HUMAN_INPUT_UNAVAILABLE");
    const throwing = Object.defineProperty({}, "timeoutMs", {
      get: () => {
        throw new Error("hostile");
      },
      enumerable: true,
    });
    expect(toolwareCode((await ask(never, throwing)).error)).toBe("TOOLWARE_INVALID_OPTION");
  }, 2000);
});

describe("whatever the provider throws or answers", () => {
  const hostileProxy = () =>
    new Proxy(
      {},
      {
        getPrototypeOf: () => {
          throw new Error("trap");
        },
        get: () => {
          throw new Error("trap");
        },
      },
    );

  it("a thrown Proxy whose traps throw is HumanInputUnavailableError with it as the cause", async () => {
    const thrown = hostileProxy();
    const r = await ask(() => {
      throw thrown;
    });
    expect(r.error).toBeInstanceOf(HumanInputUnavailableError);
    expect((r.error as Error).cause).toBe(thrown);
    expect(r.status).toBe("blocked");
  });

  it("settles with a string or a coded human-input error, and invoke never rejects", async () => {
    const values = fc.oneof(
      fc.anything(),
      fc.bigInt(),
      fc.constant(Symbol("s")),
      fc.constant("hostile").map(() => hostileProxy()),
    );
    await fc.assert(
      fc.asyncProperty(values, fc.constantFrom("throw", "reject", "return", "resolve"), async (value, how) => {
        const provider = (() => {
          if (how === "throw") throw value;
          if (how === "reject") return Promise.reject(value);
          if (how === "return") return value;
          return Promise.resolve(value);
        }) as HumanInputProvider;
        const r = await ask(provider);
        if ("answer" in r) {
          expect(typeof r.answer).toBe("string");
          expect(r.status).toBe("ok");
        } else {
          expect(["TOOLWARE_HUMAN_INPUT_UNAVAILABLE", "TOOLWARE_HUMAN_INPUT_TIMEOUT"]).toContain(toolwareCode(r.error));
          expect(r.status).toBe("blocked");
        }
      }),
      { numRuns: 120 },
    );
  });
});
