// Contract (docs/context.md, the providers): terminalHumanInput's options are input, output,
// timeoutMs and requireTTY, checked when the provider is made. A misspelt time limit would leave
// every question unbounded; a limit changed after the check must not be the one a question uses.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { type HumanInputRequest, type TerminalHumanInputOptions, terminalHumanInput, toolwareCode } from "./index.js";
import { codeOf } from "./test-fixtures.js";

const request = (): HumanInputRequest => ({
  prompt: "Approve?",
  defaultMessage: undefined,
  toolName: "send_email",
  callId: "call-1",
  signal: new AbortController().signal,
});

describe("terminalHumanInput options", () => {
  it("an unknown option is TOOLWARE_UNKNOWN_OPTION, with a hint for `timeout`", () => {
    expect(codeOf(() => terminalHumanInput({ timeout: 1000 } as TerminalHumanInputOptions))).toBe(
      "TOOLWARE_UNKNOWN_OPTION",
    );
    expect(() => terminalHumanInput({ timeout: 1000 } as TerminalHumanInputOptions)).toThrow(/`timeoutMs`/);
    expect(codeOf(() => terminalHumanInput({ requireTty: false } as TerminalHumanInputOptions))).toBe(
      "TOOLWARE_UNKNOWN_OPTION",
    );
  });

  it("requireTTY must be a boolean, and a getter that throws is TOOLWARE_INVALID_OPTION", () => {
    for (const requireTTY of ["false", 0, 1, null, {}]) {
      expect(codeOf(() => terminalHumanInput({ requireTTY } as unknown as TerminalHumanInputOptions))).toBe(
        "TOOLWARE_INVALID_OPTION",
      );
    }
    const throwing = Object.defineProperty({}, "timeoutMs", {
      get: () => {
        throw new Error("hostile");
      },
      enumerable: true,
    });
    expect(codeOf(() => terminalHumanInput(throwing))).toBe("TOOLWARE_INVALID_OPTION");
  });

  it("the time limit is the one checked, whatever the options object says later", async () => {
    const input = new PassThrough();
    const options: { input: PassThrough; output: PassThrough; timeoutMs: number } = {
      input,
      output: new PassThrough(),
      timeoutMs: 20,
    };
    const provider = terminalHumanInput(options);
    // Changed after the check: a NaN limit fires at once, a huge one never.
    options.timeoutMs = 2 ** 40;
    const started = Date.now();
    const error = await Promise.resolve(provider(request())).catch((e: unknown) => e);
    expect(toolwareCode(error)).toBe("TOOLWARE_HUMAN_INPUT_TIMEOUT");
    expect((error as Error).message).toBe('toolware: no answer to "Approve?" within 20 ms');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
