import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { retry } from "@toolware/packs/retry";
import { timeout } from "@toolware/packs/timeout";
import { describe, expect, it } from "vitest";

// setTimeout fires after 1 ms when asked to wait longer than 2^31 - 1 ms: every option that arms a
// timer refuses such a value rather than time every call out (or retry at once).
const LONGEST = 2 ** 31 - 1;
const TOO_LONG = [2 ** 31, 3e9, Number.MAX_SAFE_INTEGER];

function refusal(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(String(error)).toMatch(/2147483647/);
    return toolwareCode(error);
  }
  return undefined;
}

describe("options that arm a timer", () => {
  it("refuse delays longer than a timer can wait", () => {
    for (const ms of TOO_LONG) {
      expect(refusal(() => timeout({ ms }))).toBe("TOOLWARE_INVALID_OPTION");
      expect(refusal(() => timeout({ ms: { default: 100, perTool: { search: ms } } }))).toBe("TOOLWARE_INVALID_OPTION");
      expect(refusal(() => retry({ maxDelayMs: ms }))).toBe("TOOLWARE_INVALID_OPTION");
      expect(refusal(() => approval({ tools: ["send"], timeoutMs: ms }))).toBe("TOOLWARE_INVALID_OPTION");
    }
  });

  it("accept the longest delay and Infinity where it means no limit", () => {
    expect(() => timeout({ ms: LONGEST })).not.toThrow();
    expect(() => retry({ maxDelayMs: LONGEST })).not.toThrow();
    expect(() => approval({ tools: ["send"], timeoutMs: LONGEST })).not.toThrow();
    expect(() => approval({ tools: ["send"], timeoutMs: Infinity })).not.toThrow();
  });

  it("let a slow tool finish under the longest timeout", async () => {
    const hooks = new ToolHooks();
    hooks.use(timeout({ ms: LONGEST }));
    const slow = defineTool({
      name: "slow",
      execute: () => new Promise((resolve) => setTimeout(() => resolve("done"), 20)),
    });
    const outcome = await hooks.invoke(slow, {});
    expect(outcome.status).toBe("ok");
    expect(outcome.result).toBe("done");
  });
});
