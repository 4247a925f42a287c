import type { CanUseTool, HookCallbackMatcher, Options, PreToolUseHookInput } from "@anthropic-ai/claude-agent-sdk";
import { type HumanInputProvider, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import { describe, expectTypeOf, it } from "vitest";
import { claudeApprovals, toolwareHooks } from "./index.js";

describe("types", () => {
  it("returns what the SDK's options take: hooks by event and a canUseTool", () => {
    const guard = toolwareHooks(new ToolHooks());
    expectTypeOf(guard.hooks.PreToolUse).toEqualTypeOf<HookCallbackMatcher[]>();
    expectTypeOf(guard.canUseTool).toEqualTypeOf<CanUseTool>();
    const options: Options = { ...guard };
    expectTypeOf(options.hooks).not.toBeAny();
  });

  it("bind and onOutcome see the PreToolUse input typed, never any", () => {
    toolwareHooks(guardrails({ deny: ["Bash"] }), {
      bind: (input) => {
        expectTypeOf(input).toEqualTypeOf<PreToolUseHookInput>();
        return undefined;
      },
      onOutcome: (outcome, input) => {
        expectTypeOf(outcome).toEqualTypeOf<ToolCallOutcome<unknown>>();
        expectTypeOf(input).toEqualTypeOf<PreToolUseHookInput>();
      },
    });
    expectTypeOf(claudeApprovals()).toEqualTypeOf<HumanInputProvider>();
  });

  it("refuses what is neither a ToolHooks nor a pack, and unknown options", () => {
    // @ts-expect-error a string is not a hook stack
    toolwareHooks("hooks");
    // @ts-expect-error a misspelt option
    toolwareHooks(new ToolHooks(), { projectDirr: "/x" });
  });
});
