import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  defineTool,
  type HumanInputRequest,
  HumanInputTimeoutError,
  HumanInputUnavailableError,
  scriptedHumanInput,
  ToolHooks,
  terminalHumanInput,
  toolwareCode,
  withHumanInputTimeout,
} from "./index.js";

const request = (prompt = "Approve?", signal = new AbortController().signal): HumanInputRequest => ({
  prompt,
  defaultMessage: "Type 'yes' to approve:",
  toolName: "send_email",
  callId: "c1",
  signal,
});

function terminal(options: { isTTY?: boolean; timeoutMs?: number; requireTTY?: boolean } = {}) {
  const input = Object.assign(new PassThrough(), { isTTY: options.isTTY });
  const output = new PassThrough();
  let printed = "";
  output.on("data", (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const provider = terminalHumanInput({
    input,
    output,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.requireTTY === undefined ? {} : { requireTTY: options.requireTTY }),
  });
  return { input, provider, printed: () => printed };
}

describe("terminalHumanInput", () => {
  it("prints the prompt and default message, reads one line and trims it", async () => {
    const t = terminal();
    const answer = t.provider(request());
    t.input.write("  yes  \n");
    await expect(answer).resolves.toBe("yes");
    expect(t.printed()).toBe("\nApprove?\nType 'yes' to approve:\n> ");
  });

  it("gives an empty string for Enter", async () => {
    const t = terminal();
    const answer = t.provider(request());
    t.input.write("\n");
    await expect(answer).resolves.toBe("");
  });

  it("answers concurrent questions in turn, keeping lines typed ahead", async () => {
    const t = terminal();
    t.input.write("first\nsecond\n");
    const answers = await Promise.all([t.provider(request("A?")), t.provider(request("B?"))]);
    expect(answers).toEqual(["first", "second"]);
  });

  it("refuses without a terminal, with an error that fail-closed hooks turn into a block", async () => {
    const t = terminal({ requireTTY: true, isTTY: false });
    await expect(t.provider(request())).rejects.toBeInstanceOf(HumanInputUnavailableError);
    await expect(t.provider(request())).rejects.toThrow(/standard input is not a terminal/);
    const tty = terminal({ requireTTY: true, isTTY: true });
    const answer = tty.provider(request());
    tty.input.write("ok\n");
    await expect(answer).resolves.toBe("ok");
  });

  it("times out, and fails when input ends or the call is cancelled", async () => {
    const slow = terminal({ timeoutMs: 20 });
    await expect(slow.provider(request())).rejects.toBeInstanceOf(HumanInputTimeoutError);

    const ended = terminal();
    const pending = ended.provider(request());
    ended.input.end();
    await expect(pending).rejects.toThrow(/input ended before "Approve\?" was answered/);
    await expect(ended.provider(request("Again?"))).rejects.toThrow(/input ended before "Again\?"/);

    const controller = new AbortController();
    const cancelled = terminal();
    const waiting = cancelled.provider(request("Wait?", controller.signal));
    controller.abort(new Error("user left"));
    await expect(waiting).rejects.toThrow(/the call was cancelled while waiting for a human: user left/);
    const already = terminal();
    await expect(already.provider(request("X?", controller.signal))).rejects.toThrow(/cancelled/);
  });

  it("blocks a gated tool when nobody can answer", async () => {
    const t = terminal({ requireTTY: true, isTTY: false });
    const hooks = new ToolHooks({ humanInput: t.provider });
    hooks.before(async (ctx) => (await ctx.requestHumanInput("Approve?")) === "yes", { name: "approval" });
    const outcome = await hooks.invoke(defineTool({ name: "delete_file", execute: () => "deleted" }), {});
    expect(outcome.status).toBe("blocked");
    expect(outcome.reason).toMatch(
      /^hook approval failed: toolware: cannot ask "Approve\?": standard input is not a terminal/,
    );
  });
});

describe("terminalHumanInput, the default provider, in any runtime", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  function stubStdio() {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    const stdout = new PassThrough();
    const stdinGet = vi.spyOn(process, "stdin", "get").mockReturnValue(stdin as never);
    const stdoutGet = vi.spyOn(process, "stdout", "get").mockReturnValue(stdout as never);
    return { stdin, stdinGet, stdoutGet };
  }

  it("touches neither process.stdin nor process.stdout until the first question, then asks there", async () => {
    const { stdin, stdinGet, stdoutGet } = stubStdio();
    const hooks = new ToolHooks();
    const provider = terminalHumanInput();
    const plain = await hooks.invoke(defineTool({ name: "t", execute: () => "ran" }), {});
    expect(plain.status).toBe("ok");
    expect(stdinGet).not.toHaveBeenCalled();
    expect(stdoutGet).not.toHaveBeenCalled();

    hooks.before(async (ctx) => (await ctx.requestHumanInput("Approve?")) === "yes", { name: "approval" });
    const gated = hooks.invoke(defineTool({ name: "send", execute: () => "sent" }), {});
    await vi.waitFor(() => expect(stdinGet).toHaveBeenCalled());
    stdin.write("yes\n");
    expect((await gated).status).toBe("ok");
    const direct = provider(request());
    stdin.write("no\n");
    await expect(direct).resolves.toBe("no");
  });

  it("refuses, and the gated call blocks, where node:readline cannot be reached", async () => {
    stubStdio();
    vi.spyOn(process, "getBuiltinModule").mockReturnValue(undefined as never);
    const hooks = new ToolHooks();
    hooks.before(async (ctx) => (await ctx.requestHumanInput("Approve?")) === "yes", { name: "approval" });
    const outcome = await hooks.invoke(defineTool({ name: "send", execute: () => "sent" }), {});
    expect(outcome.status).toBe("blocked");
    expect(outcome.reason).toMatch(/cannot read a terminal \(node:readline through process\.getBuiltinModule/);
    const error = await Promise.resolve(terminalHumanInput()(request())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HumanInputUnavailableError);
    expect(toolwareCode(error)).toBe("TOOLWARE_HUMAN_INPUT_UNAVAILABLE");
  });

  it("refuses a time limit that would fire at once or never, with a code", () => {
    for (const bad of [0, -5, Number.POSITIVE_INFINITY, Number.NaN, "100", null]) {
      let thrown: unknown;
      try {
        terminalHumanInput({ timeoutMs: bad as never });
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect(toolwareCode(thrown)).toBe("TOOLWARE_INVALID_OPTION");
    }
    expect(() => terminalHumanInput(null as never)).toThrow(/takes an options object/);
    expect(terminalHumanInput({ timeoutMs: 1000 })).toBeTypeOf("function");
  });

  it("refuses where the runtime has no standard streams", async () => {
    vi.spyOn(process, "stdin", "get").mockReturnValue(undefined as never);
    const error = await Promise.resolve(terminalHumanInput()(request())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HumanInputUnavailableError);
    expect((error as Error).message).toMatch(/this runtime has no terminal/);
  });
});

describe("scriptedHumanInput", () => {
  it("answers in order, trims, records requests and counts what is left", async () => {
    const human = scriptedHumanInput([" yes ", (r) => `seen ${r.prompt}`]);
    expect(human.remaining).toBe(2);
    await expect(human(request("One?"))).resolves.toBe("yes");
    await expect(human(request("Two?"))).resolves.toBe("seen Two?");
    expect(human.remaining).toBe(0);
    await expect(human(request("Three?"))).rejects.toThrow(/the scripted human has no answer left for "Three\?"/);
    expect(human.requests.map((r) => r.prompt)).toEqual(["One?", "Two?", "Three?"]);
  });

  it("answers every request with one function or string", async () => {
    const always = scriptedHumanInput("no");
    await expect(always(request())).resolves.toBe("no");
    await expect(always(request())).resolves.toBe("no");
    expect(always.remaining).toBe(Number.POSITIVE_INFINITY);
    const wrong = scriptedHumanInput([() => 3 as never]);
    await expect(wrong(request())).rejects.toThrow(/a scripted answer must be a string, got number/);
  });
});

describe("withHumanInputTimeout", () => {
  it("bounds any provider", async () => {
    const never = withHumanInputTimeout(() => new Promise<string>(() => {}), 10);
    await expect(never(request())).rejects.toThrow(/no answer from a human within 10 ms/);
    const quick = withHumanInputTimeout(() => "yes", 1000);
    await expect(quick(request())).resolves.toBe("yes");
    expect(() => withHumanInputTimeout(() => "", 0)).toThrow(/positive timeout/);
    for (const bad of [0, -1, Number.NaN, "10", null, Symbol("ms"), { valueOf: () => 10 }]) {
      let thrown: unknown;
      try {
        withHumanInputTimeout(() => "", bad as never);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(TypeError);
      expect(toolwareCode(thrown)).toBe("TOOLWARE_INVALID_OPTION");
    }
    expect(() => withHumanInputTimeout("yes" as never, 10)).toThrow(/needs a provider function/);
  });

  it("refuses a timeout that is not a positive, finite number, with a code", () => {
    for (const ms of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, "10", undefined, null, 10n]) {
      let error: unknown;
      try {
        withHumanInputTimeout(() => "", ms as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_OPTION");
      expect(String(error)).toMatch(/^TypeError: toolware: withHumanInputTimeout\(\) needs a positive timeout/);
    }
  });

  it("rejects a provider that returns something other than a string", async () => {
    const hooks = new ToolHooks({ humanInput: (() => 42) as never });
    let error: unknown;
    hooks.before(async (ctx) => {
      error = await ctx.requestHumanInput("?").catch((e: unknown) => e);
    });
    await hooks.invoke(defineTool({ name: "t", execute: () => 1 }), {});
    expect((error as Error).message).toMatch(/provider returned number instead of a string/);
  });

  it("lets the provider be swapped on a live instance", async () => {
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["a"]) });
    hooks.humanInput = scriptedHumanInput(["b"]);
    let answer = "";
    hooks.before(async (ctx) => {
      answer = await ctx.requestHumanInput("?");
    });
    await hooks.invoke(defineTool({ name: "t", execute: () => 1 }), {});
    expect(answer).toBe("b");
    expect(() => {
      hooks.humanInput = "x" as never;
    }).toThrow(/humanInput must be a function/);
  });
});
