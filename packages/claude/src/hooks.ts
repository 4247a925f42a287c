import type {
  CanUseTool,
  HookCallbackMatcher,
  HookInput,
  HookJSONOutput,
  PostToolUseFailureHookInput,
  PostToolUseHookInput,
  PreToolUseHookInput,
} from "@anthropic-ai/claude-agent-sdk";
import { claimGuard, isPack, messageOf, type Pack, ToolHooks, ToolwareTypeError } from "@toolware/core";
import { ClaudeCalls, type Decision } from "./calls.js";
import { readOptions, type ToolwareHooksOptions } from "./options.js";

/** What {@link toolwareHooks} returns: spread it into the Agent SDK's `query({ options })`. */
export interface ToolwareClaudeHooks {
  readonly hooks: {
    readonly PreToolUse: HookCallbackMatcher[];
    readonly PostToolUse: HookCallbackMatcher[];
    readonly PostToolUseFailure: HookCallbackMatcher[];
  };
  readonly canUseTool: CanUseTool;
}

/** The `PreToolUse` answer Claude Code reads for a decision. @internal */
export function preToolUseOutput(decision: Decision): HookJSONOutput {
  if (decision.kind === "allow") {
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        ...(decision.updatedInput === undefined ? {} : { updatedInput: decision.updatedInput }),
      },
    };
  }
  return {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: decision.kind,
      permissionDecisionReason: decision.reason,
    },
  };
}

// A built-in tool's output has its own shape (Bash: `{ stdout, stderr, … }`): a changed result that is still JSON
// of an object goes back as that object, so Claude Code can read it as the tool's output.
function asToolOutput(text: string, input: HookInput): unknown {
  const own = (input as PostToolUseHookInput).tool_response;
  if (own === null || typeof own !== "object") return text;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === "object" ? parsed : text;
  } catch {
    return text;
  }
}

/** Fail closed: whatever went wrong inside the adapter denies the call, saying why. @internal */
export function failedClosed(error: unknown): HookJSONOutput {
  return preToolUseOutput({
    kind: "deny",
    reason: `toolware could not decide this call, so it was denied: ${messageOf(error)}`,
  });
}

/**
 * Runs every tool call of the Claude Agent SDK (Claude Code's built-in tools such as `Bash`, `Write`, `Edit`,
 * `Read`, `WebFetch`, and MCP tools named `mcp__<server>__<tool>`) through a toolware hook stack. Returns the SDK's
 * `hooks` and a `canUseTool`: the chain starts in `PreToolUse` and runs up to the tool (a block becomes
 * `permissionDecision: "deny"` with the reason Claude reads, a rewrite becomes `updatedInput`, a question of the
 * approval pack asked through {@link claudeApprovals} becomes `ask`), Claude Code runs the tool, and its result goes
 * through the after-hooks in `PostToolUse` (a changed result becomes `updatedToolOutput`). Takes a `ToolHooks`, or a
 * pack (a policy from `loadPolicy`) that it registers on a fresh `ToolHooks`. A hook stack guards once: a second
 * call for the same `ToolHooks` throws `TOOLWARE_CLAUDE_ALREADY_GUARDED`.
 *
 * @example
 * ```ts
 * const guard = toolwareHooks(hooks);
 * for await (const message of query({ prompt, options: { ...guard } })) console.log(message);
 * ```
 */
export function toolwareHooks(hooksOrPack: ToolHooks | Pack, options?: ToolwareHooksOptions): ToolwareClaudeHooks {
  const read = readOptions(options);
  let hooks: ToolHooks;
  if (hooksOrPack instanceof ToolHooks) hooks = hooksOrPack;
  else if (isPack(hooksOrPack)) {
    hooks = new ToolHooks();
    hooks.use(hooksOrPack);
  } else {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      "toolwareHooks(hooks, options?) takes a ToolHooks or a pack (such as a policy from loadPolicy)",
    );
  }
  claimGuard(hooks, hooks, "TOOLWARE_CLAUDE_ALREADY_GUARDED", "this ToolHooks");
  const calls = new ClaudeCalls(hooks, read);
  const pre = async (input: HookInput, toolUseId: string | undefined, { signal }: { signal: AbortSignal }) => {
    try {
      if (input?.hook_event_name !== "PreToolUse") return {};
      return preToolUseOutput(await calls.pre(input as PreToolUseHookInput, toolUseId, signal));
    } catch (error) {
      return failedClosed(error);
    }
  };
  const post = async (input: HookInput): Promise<HookJSONOutput> => {
    try {
      if (input?.hook_event_name !== "PostToolUse") return {};
      const replaced = await calls.post(input as PostToolUseHookInput);
      if (replaced === undefined) return {};
      return { hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: asToolOutput(replaced, input) } };
    } catch (error) {
      // The tool ran already: what the model reads of it is withheld rather than passed on unchecked.
      return {
        hookSpecificOutput: {
          hookEventName: "PostToolUse",
          updatedToolOutput: `toolware could not check this result, so it was withheld: ${messageOf(error)}`,
        },
      };
    }
  };
  const failure = async (input: HookInput): Promise<HookJSONOutput> => {
    try {
      if (input?.hook_event_name === "PostToolUseFailure") await calls.failed(input as PostToolUseFailureHookInput);
    } catch {
      // The tool failed already and the model reads its error: nothing to withhold.
    }
    return {};
  };
  const matcher = (fn: HookCallbackMatcher["hooks"][number]): HookCallbackMatcher[] => [
    { hooks: [fn], timeout: read.timeoutSeconds, onFailure: "block" },
  ];
  return {
    hooks: { PreToolUse: matcher(pre), PostToolUse: matcher(post), PostToolUseFailure: matcher(failure) },
    canUseTool: calls.canUseTool,
  };
}
