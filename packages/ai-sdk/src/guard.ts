import { claimGuard, guardOf, ToolHooks, ToolwareError, ToolwareTypeError } from "@toolware/core";
import type { SdkCallOptions } from "./call.js";
import { resumingAnswer, UNBOUND } from "./history.js";
import { checkOptions } from "./options.js";
import { isDeniedOutput } from "./outcome.js";
import { ToolRunner } from "./runner.js";
import type { GuardToolsOptions, UnguardableTool } from "./types.js";

/** The fields of an AI SDK tool (ai 6 or 7) the adapter reads or replaces. */
interface SdkTool {
  readonly type?: unknown;
  readonly isProviderExecuted?: unknown;
  readonly description?: unknown;
  readonly execute?: unknown;
  readonly needsApproval?: unknown;
  readonly toModelOutput?: unknown;
}

type ModelOutputOptions = { toolCallId: string; input: unknown; output: unknown };
type ModelOutput = (options: ModelOutputOptions) => unknown;
type NeedsApproval = (input: unknown, options: SdkCallOptions) => unknown;

// The runner of each tool guardTools made, for toolApproval().
const runners = new WeakMap<object, ToolRunner>();

/** The runner behind a guarded tool. @internal */
export function runnerOf(tool: unknown): ToolRunner | undefined {
  return tool !== null && typeof tool === "object" ? runners.get(tool) : undefined;
}

function unguardableKind(tool: SdkTool): UnguardableTool["kind"] | undefined {
  if (typeof tool.execute === "function") return undefined;
  return tool.type === "provider" && tool.isProviderExecuted !== false ? "provider-executed" : "no-execute";
}

function modelOutput(runner: ToolRunner, own: ModelOutput | undefined): ModelOutput {
  return (options) => {
    const output = options.output;
    if (isDeniedOutput(output)) return { type: "execution-denied", reason: output.reason };
    if (own !== undefined && !runner.changed(options.toolCallId)) return own(options);
    // The SDK's own default, for results hooks changed (the tool's mapping was written for its own values).
    return typeof output === "string" ? { type: "text", value: output } : { type: "json", value: output ?? null };
  };
}

function approvalCheck(runner: ToolRunner, own: unknown): NeedsApproval {
  return async (input, options) => {
    // An answered request is checked again on resume: the SDK runs it only if it still "needs approval"
    // (the chain then runs at execute, where the approval pack reads the user's answer).
    if (own === true || runner.answered(input, options)) return true;
    if (typeof own === "function" && (await (own as NeedsApproval)(input, options)) === true) return true;
    if ((await runner.early(input, options)).kind !== "deferred") return false;
    if (!resumingAnswer(options.messages, options.toolCallId)) return true;
    // ai 6 denies a resumed call that "does not require approval": no answer here was bound to it.
    runner.withdraw(options.toolCallId, UNBOUND(runner.name, options.toolCallId));
    return false;
  };
}

/**
 * Guards a whole AI SDK tool set (ai 6 or 7): every call of every tool, in `generateText`,
 * `streamText` and `ToolLoopAgent`, runs through the ToolHooks' chain with the SDK's `toolCallId`
 * as its call id. Returns a set of the same type; tools without a local `execute` (provider-executed
 * ones) are refused unless `unguardable` accepts them.
 *
 * @example
 * ```ts
 * const tools = guardTools(hooks, { weather, sendEmail }, { bind: () => ({ agent: assistant }) });
 * await generateText({ model, tools, prompt: "…", stopWhen: stepCountIs(5) });
 * ```
 */
export function guardTools<TOOLS extends Record<string, object>>(
  hooks: ToolHooks,
  tools: TOOLS,
  options?: GuardToolsOptions<keyof TOOLS & string>,
): TOOLS {
  if (!(hooks instanceof ToolHooks)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "guardTools(hooks, tools) needs a ToolHooks first");
  }
  if (tools === null || typeof tools !== "object" || Array.isArray(tools)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      "guardTools(hooks, tools) needs a tool set: an object { name: tool({ … }) }",
    );
  }
  const checked = checkOptions(options, Object.keys(tools));
  const guarded: Record<string, object> = {};
  for (const [name, value] of Object.entries(tools)) {
    if (value === null || typeof value !== "object") {
      throw new ToolwareTypeError("TOOLWARE_INVALID_TOOL", `guardTools(): tool ${name} is not a tool object`);
    }
    // A tool guardTools returned, guarded again, would run the chain twice per call.
    if (guardOf(value) !== undefined) {
      throw new ToolwareTypeError(
        "TOOLWARE_AI_SDK_ALREADY_GUARDED",
        `guardTools(): tool ${name} is already guarded: its calls would run two chains; pass the tools you defined, once`,
      );
    }
    const tool = value as SdkTool;
    const kind = unguardableKind(tool);
    if (kind !== undefined) {
      const accept = checked.unguardable;
      if (typeof accept !== "function") {
        throw new ToolwareError(
          "TOOLWARE_UNGUARDABLE_TOOL",
          `guardTools(): tool ${name} has no local execute (${kind}), so no hook can run around it; ` +
            "remove it, or accept it with the `unguardable: (tool) => …` option",
        );
      }
      accept(Object.freeze({ toolName: name, kind }));
      guarded[name] = value;
      continue;
    }
    const description = typeof tool.description === "string" ? tool.description : undefined;
    const info = checked.tools?.[name];
    const runner = new ToolRunner(name, tool.execute as never, hooks, checked, { description, ...info });
    const own = typeof tool.toModelOutput === "function" ? (tool.toModelOutput as ModelOutput) : undefined;
    const wrapped: Record<string, unknown> = {
      ...value,
      execute: (input: unknown, sdk: SdkCallOptions & Record<string, unknown>) => runner.run(input, sdk),
      toModelOutput: modelOutput(runner, own),
    };
    if (checked.nativeApproval === true) wrapped.needsApproval = approvalCheck(runner, tool.needsApproval);
    runners.set(wrapped, runner);
    claimGuard(wrapped, hooks, "TOOLWARE_AI_SDK_ALREADY_GUARDED", `tool ${name}`);
    guarded[name] = wrapped;
  }
  return guarded as TOOLS;
}
