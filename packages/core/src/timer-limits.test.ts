import { describe, expect, it } from "vitest";
import {
  defineTool,
  type HumanInputProvider,
  ToolHooks,
  terminalHumanInput,
  toolwareCode,
  withHumanInputTimeout,
} from "./index.js";

// setTimeout fires after 1 ms when asked to wait longer than 2^31 - 1 ms, so an option that arms a
// timer must refuse such a value instead of timing every call out at once.
const LONGEST = 2 ** 31 - 1;
const TOO_LONG = [2 ** 31, 3e9, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE];
const tool = defineTool({ name: "search", execute: () => "ok" });
const slowly: HumanInputProvider = () => new Promise((resolve) => setTimeout(() => resolve("yes"), 30));

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(String(error)).toMatch(/2147483647/);
    return toolwareCode(error);
  }
  return undefined;
}

describe("timer limits", () => {
  it("refuses a hook timeoutMs longer than a timer can wait, with the limit in the message", () => {
    for (const ms of TOO_LONG) {
      expect(codeOf(() => new ToolHooks().before(() => undefined, { timeoutMs: ms }))).toBe("TOOLWARE_INVALID_OPTION");
    }
  });

  it("keeps an async hook with the longest timeoutMs running to its end", async () => {
    const hooks = new ToolHooks();
    hooks.before(() => new Promise<void>((resolve) => setTimeout(resolve, 20)), { name: "slow", timeoutMs: LONGEST });
    const outcome = await hooks.invoke(tool, {});
    expect(outcome.status).toBe("ok");
    expect(outcome.result).toBe("ok");
  });

  it("refuses human-input time limits a timer cannot honour", () => {
    for (const ms of TOO_LONG) {
      expect(codeOf(() => withHumanInputTimeout(slowly, ms))).toBe("TOOLWARE_INVALID_OPTION");
      expect(codeOf(() => terminalHumanInput({ timeoutMs: ms }))).toBe("TOOLWARE_INVALID_OPTION");
    }
    expect(() => withHumanInputTimeout(slowly, LONGEST)).not.toThrow();
  });

  it("reads requestHumanInput's timeoutMs: Infinity as no limit, and refuses a finite value too long for a timer", async () => {
    const hooks = new ToolHooks({ humanInput: slowly });
    const answers: unknown[] = [];
    hooks.before(async (ctx) => {
      answers.push(await ctx.requestHumanInput("Go?", undefined, { timeoutMs: Infinity }));
      answers.push(await ctx.requestHumanInput("Go?", undefined, { timeoutMs: LONGEST }));
      answers.push(
        await ctx.requestHumanInput("Go?", undefined, { timeoutMs: 2 ** 31 }).catch((e: unknown) => toolwareCode(e)),
      );
      // Options in the default message's place, a typo and a bad signal are refused, never ignored.
      const misuse = [
        () => ctx.requestHumanInput("Go?", { timeoutMs: 5 } as never),
        () => ctx.requestHumanInput("Go?", undefined, { timeout: 5 } as never),
        () => ctx.requestHumanInput("Go?", undefined, { signal: "stop" } as never),
        () => ctx.requestHumanInput("Go?", undefined, 5 as never),
      ];
      for (const ask of misuse) answers.push(await ask().catch((e: unknown) => toolwareCode(e)));
    });
    const outcome = await hooks.invoke(tool, {});
    expect(answers).toEqual([
      "yes",
      "yes",
      "TOOLWARE_INVALID_OPTION",
      "TOOLWARE_INVALID_ARGUMENT",
      "TOOLWARE_UNKNOWN_OPTION",
      "TOOLWARE_INVALID_OPTION",
      "TOOLWARE_INVALID_OPTION",
    ]);
    expect(outcome.status).toBe("ok");
  });
});
