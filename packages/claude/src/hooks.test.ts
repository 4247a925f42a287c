// The hook functions toolwareHooks returns, called as the Agent SDK calls them, with the documented inputs.
import type { HookCallback, HookInput, PreToolUseHookInput } from "@anthropic-ai/claude-agent-sdk";
import { type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claudeApprovals, toolwareHooks } from "./index.js";

const signal = new AbortController().signal;
const base = { session_id: "s", transcript_path: "/tmp/t.jsonl", cwd: "/work/project", permission_mode: "default" };
const pre = (tool_name: string, tool_input: unknown, tool_use_id = "toolu_1"): PreToolUseHookInput =>
  ({ ...base, hook_event_name: "PreToolUse", tool_name, tool_input, tool_use_id }) as PreToolUseHookInput;
const first = (matchers: { hooks: HookCallback[] }[]): HookCallback => matchers[0]?.hooks[0] as HookCallback;
const specific = (out: unknown) => (out as { hookSpecificOutput?: Record<string, unknown> }).hookSpecificOutput;

describe("toolwareHooks: the call boundary", () => {
  it("refuses arguments that are not an object: the call is denied, the model reads why, onOutcome hears it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.integer())),
        async (value) => {
          const hooks = new ToolHooks();
          let ran = 0;
          hooks.before(() => {
            ran++;
          });
          const outcomes: ToolCallOutcome[] = [];
          const guard = toolwareHooks(hooks, { onOutcome: (o) => outcomes.push(o) });
          const out = specific(await first(guard.hooks.PreToolUse)(pre("Bash", value), "toolu_1", { signal }));
          expect(out?.permissionDecision).toBe("deny");
          expect(String(out?.permissionDecisionReason)).toContain("TOOLWARE_INVALID_INPUT");
          expect(ran).toBe(0);
          expect(outcomes.map((o) => [o.callId, o.status])).toEqual([["toolu_1", "error"]]);
        },
      ),
      { numRuns: 20 },
    );
  });

  it("refuses an unknown option with a did-you-mean hint, and bad values", () => {
    expect(() => toolwareHooks(new ToolHooks(), { projectDirr: "/x" } as never)).toThrow(/did you mean `projectDir`/);
    expect(() => toolwareHooks(new ToolHooks(), { timeoutSeconds: 0 })).toThrow(/TOOLWARE|timeoutSeconds/);
    expect(() => toolwareHooks(new ToolHooks(), { results: "all" } as never)).toThrow(/results/);
    expect(() => toolwareHooks(new ToolHooks(), { canUseTool: "yes" } as never)).toThrow(/canUseTool/);
    expect(() => toolwareHooks({} as never)).toThrow(/ToolHooks or a pack/);
  });

  it("guards a ToolHooks once: a second toolwareHooks would run every chain twice", () => {
    const hooks = new ToolHooks();
    toolwareHooks(hooks);
    expect(() => toolwareHooks(hooks)).toThrow(expect.objectContaining({ code: "TOOLWARE_CLAUDE_ALREADY_GUARDED" }));
  });

  it("takes a pack (a policy) and registers it on a fresh ToolHooks", async () => {
    const guard = toolwareHooks(guardrails({ deny: ["Bash"] }));
    const out = specific(await first(guard.hooks.PreToolUse)(pre("Bash", { command: "ls" }), "toolu_1", { signal }));
    expect(out?.permissionDecision).toBe("deny");
  });

  it("denies a second call with an id still running, and a call with no id", async () => {
    const guard = toolwareHooks(new ToolHooks(), { results: "await" });
    const run = first(guard.hooks.PreToolUse);
    expect(
      specific(await run(pre("Bash", { command: "ls" }, "toolu_same"), "toolu_same", { signal }))?.permissionDecision,
    ).toBe("allow");
    const again = specific(await run(pre("Bash", { command: "rm -rf /" }, "toolu_same"), "toolu_same", { signal }));
    expect(again?.permissionDecision).toBe("deny");
    const none = specific(await run(pre("Bash", { command: "ls" }, ""), undefined, { signal }));
    expect(none?.permissionDecision).toBe("deny");
  });

  it("a hook whose policy is throw still denies the call (fail closed)", async () => {
    const hooks = new ToolHooks();
    hooks.before(
      () => {
        throw new Error("boom");
      },
      { onError: "throw" },
    );
    const guard = toolwareHooks(hooks, { onOutcome: () => {} });
    const out = specific(
      await first(guard.hooks.PreToolUse)(pre("Write", { file_path: "/work/project/a" }), "toolu_1", { signal }),
    );
    expect(out?.permissionDecision).toBe("deny");
  });

  it("answers other events with nothing, and registers its matchers to block on failure", async () => {
    const guard = toolwareHooks(new ToolHooks(), { timeoutSeconds: 30 });
    const other = { ...base, hook_event_name: "Stop" } as unknown as HookInput;
    expect(await first(guard.hooks.PreToolUse)(other, undefined, { signal })).toEqual({});
    expect(await first(guard.hooks.PostToolUse)(other, undefined, { signal })).toEqual({});
    expect(guard.hooks.PreToolUse[0]).toMatchObject({ timeout: 30, onFailure: "block" });
  });

  it("the result comes through the after-hooks; a tool failure ends the chain with an error", async () => {
    const hooks = new ToolHooks();
    hooks.after((ctx) => String(ctx.toolResult).replaceAll("secret", "[x]"));
    const outcomes: ToolCallOutcome[] = [];
    const guard = toolwareHooks(hooks, { onOutcome: (o) => outcomes.push(o) });
    await first(guard.hooks.PreToolUse)(pre("Read", { file_path: "/work/project/a" }, "toolu_r"), "toolu_r", {
      signal,
    });
    const post = await first(guard.hooks.PostToolUse)(
      {
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Read",
        tool_input: {},
        tool_use_id: "toolu_r",
        tool_response: "a secret",
      },
      "toolu_r",
      { signal },
    );
    expect(specific(post)?.updatedToolOutput).toBe("a [x]");
    await first(guard.hooks.PreToolUse)(pre("Bash", { command: "false" }, "toolu_f"), "toolu_f", { signal });
    await first(guard.hooks.PostToolUseFailure)(
      {
        ...base,
        hook_event_name: "PostToolUseFailure",
        tool_name: "Bash",
        tool_input: {},
        tool_use_id: "toolu_f",
        error: "exit 1",
      },
      "toolu_f",
      { signal },
    );
    expect(outcomes.map((o) => [o.callId, o.status])).toEqual([
      ["toolu_r", "ok"],
      ["toolu_f", "error"],
    ]);
  });

  it("canUseTool: an answer for other arguments than those asked about approves nothing", async () => {
    const hooks = new ToolHooks({ humanInput: claudeApprovals() });
    hooks.before(async (ctx) => {
      const answer = await ctx.requestHumanInput("Run it?");
      if (answer !== "yes") ctx.block(`not approved: ${answer}`);
    });
    let asked = 0;
    const guard = toolwareHooks(hooks, {
      canUseTool: async (_n, input) => {
        asked++;
        return { behavior: "allow", updatedInput: input };
      },
    });
    const out = specific(
      await first(guard.hooks.PreToolUse)(pre("Bash", { command: "ls" }, "toolu_a"), "toolu_a", { signal }),
    );
    expect(out?.permissionDecision).toBe("ask");
    const answer = await guard.canUseTool("Bash", { command: "rm -rf /" }, { signal, toolUseID: "toolu_a" } as never);
    expect(answer?.behavior).toBe("deny");
    expect(asked).toBe(0);
  });

  it("canUseTool with no app prompt denies what Claude Code asks about", async () => {
    const guard = toolwareHooks(new ToolHooks());
    const answer = await guard.canUseTool("Bash", { command: "ls" }, { signal, toolUseID: "toolu_z" } as never);
    expect(answer).toMatchObject({ behavior: "deny" });
  });
});

describe("toolwareHooks: approvals asked in the process", () => {
  it("without claudeApprovals the approval pack asks the ToolHooks' provider while PreToolUse waits", async () => {
    const { approval } = await import("@toolware/packs/approval");
    const asked: string[] = [];
    const hooks = new ToolHooks({
      humanInput: (request) => {
        asked.push(request.callId);
        return request.callId === "toolu_yes" ? "yes" : "no";
      },
    });
    hooks.use(approval({ tools: ["Bash"] }));
    const guard = toolwareHooks(hooks);
    const run = first(guard.hooks.PreToolUse);
    const yes = specific(await run(pre("Bash", { command: "ls" }, "toolu_yes"), "toolu_yes", { signal }));
    const no = specific(await run(pre("Bash", { command: "ls" }, "toolu_no"), "toolu_no", { signal }));
    expect(asked).toEqual(["toolu_yes", "toolu_no"]);
    expect(yes?.permissionDecision).toBe("allow");
    expect(no?.permissionDecision).toBe("deny");
    expect(String(no?.permissionDecisionReason)).toContain('did not approve Bash (answer: "no")');
  });

  it("claudeApprovals refuses a question from a call that did not come through toolwareHooks", async () => {
    const hooks = new ToolHooks({ humanInput: claudeApprovals() });
    hooks.before(async (ctx) => {
      await ctx.requestHumanInput("ok?");
    });
    const { defineTool } = await import("@toolware/core");
    const tool = defineTool({ name: "Bash", execute: () => "ran" });
    const outcome = await hooks.invoke(tool, {});
    expect(outcome.status).not.toBe("ok");
  });
});
