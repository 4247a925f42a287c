import type {
  CanUseTool,
  PermissionResult,
  PostToolUseFailureHookInput,
  PostToolUseHookInput,
  PreToolUseHookInput,
} from "@anthropic-ai/claude-agent-sdk";
import {
  approvalAnswers,
  bindCall,
  defineTool,
  digestArguments,
  formatToolResult,
  type HumanInputRequest,
  HumanInputUnavailableError,
  linkAbort,
  messageOf,
  notifyOutcome,
  readArguments,
  refusedOutcome,
  type Tool,
  type ToolCallOutcome,
  type ToolHooks,
  ToolwareError,
} from "@toolware/core";
import { asCall } from "./approvals.js";
import type { readOptions } from "./options.js";
import { tagsOf } from "./tags.js";

/** What the chain decided for a call, as Claude Code's `PreToolUse` answer. @internal */
export type Decision =
  | { readonly kind: "allow"; readonly updatedInput?: Record<string, unknown> | undefined }
  | { readonly kind: "deny"; readonly reason: string }
  | { readonly kind: "ask"; readonly reason: string };

type Ran = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

interface Running {
  readonly tool: Tool<object, unknown>;
  readonly hookInput: PreToolUseHookInput;
  readonly digest: string | undefined;
  readonly outcome: Promise<ToolCallOutcome>;
  readonly atTool: Promise<Record<string, unknown>>;
  asked: Promise<void>;
  question: { readonly request: HumanInputRequest; readonly answer: (text: string) => void } | undefined;
  reached: boolean;
  release(ran: Ran): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** A new question may come once one was answered. */
  renewAsk(): void;
}

export const FRAMEWORK = "claude";

function digestOf(input: unknown): string | undefined {
  try {
    return digestArguments(input);
  } catch {
    return undefined;
  }
}

/** The calls of one `toolwareHooks()`: each chain starts in `PreToolUse` and ends with `PostToolUse`. @internal */
export class ClaudeCalls {
  readonly #running = new Map<string, Running>();

  constructor(
    readonly hooks: ToolHooks,
    readonly options: ReturnType<typeof readOptions>,
  ) {}

  #refused(toolName: string, callId: string, error: unknown, hookInput: PreToolUseHookInput, raw?: unknown): Decision {
    const outcome = refusedOutcome(this.hooks, "claude.PreToolUse", toolName, callId, error, { input: raw });
    notifyOutcome(this.hooks, "claude.onOutcome", this.options.onOutcome, outcome, hookInput);
    return { kind: "deny", reason: outcome.result };
  }

  async pre(hookInput: PreToolUseHookInput, toolUseId: string | undefined, signal: AbortSignal | undefined) {
    const toolName = typeof hookInput.tool_name === "string" && hookInput.tool_name !== "" ? hookInput.tool_name : "";
    const given =
      typeof hookInput.tool_use_id === "string" && hookInput.tool_use_id !== "" ? hookInput.tool_use_id : toolUseId;
    const callId = typeof given === "string" && given !== "" ? given : "";
    if (toolName === "" || callId === "") {
      const error = new ToolwareError(
        "TOOLWARE_CLAUDE_INVALID_HOOK_INPUT",
        "the PreToolUse input names no tool or no tool_use_id",
      );
      return this.#refused(toolName || "unknown", callId || "unknown", error, hookInput, hookInput.tool_input);
    }
    if (this.#running.has(callId)) {
      const error = new ToolwareError(
        "TOOLWARE_CLAUDE_DUPLICATE_CALL",
        `the call id ${callId} is already running: a second call with it was refused`,
      );
      return this.#refused(toolName, callId, error, hookInput, hookInput.tool_input);
    }
    let args: Record<string, unknown>;
    let bindings: ReturnType<typeof bindCall>;
    try {
      args = readArguments(toolName, hookInput.tool_input);
      bindings = bindCall(this.options.bind, hookInput, FRAMEWORK);
      // The chain works on its own copy: Claude Code's object stays what the model sent, to compare with.
      args = structuredClone(args);
    } catch (error) {
      return this.#refused(toolName, callId, error, hookInput, hookInput.tool_input);
    }
    const projectDir = this.options.projectDir ?? (typeof hookInput.cwd === "string" ? hookInput.cwd : undefined);
    const running = this.#start(toolName, callId, args, bindings, hookInput, projectDir);
    const controller = running.controller;
    const unlink = linkAbort(signal, controller);
    try {
      const decision = await this.#next(running.call);
      // A one-shot process cannot hear Claude Code's answer: its question ends here, and Claude Code asks the user.
      if (decision.kind === "ask" && this.options.results === "none") {
        controller.abort(new ToolwareError("TOOLWARE_CLAUDE_ASKED", "the question was handed to Claude Code"));
      }
      return decision;
    } finally {
      unlink();
    }
  }

  #start(
    toolName: string,
    callId: string,
    args: Record<string, unknown>,
    bindings: ReturnType<typeof bindCall>,
    hookInput: PreToolUseHookInput,
    projectDir: string | undefined,
  ) {
    const controller = new AbortController();
    let reached: (input: Record<string, unknown>) => void = () => {};
    const atTool = new Promise<Record<string, unknown>>((resolve) => {
      reached = resolve;
    });
    let release: (ran: Ran) => void = () => {};
    const ran = new Promise<Ran>((resolve) => {
      release = resolve;
    });
    const awaitResults = this.options.results === "await";
    const tool = defineTool<object, unknown>({
      name: toolName,
      tags: tagsOf(toolName, args, projectDir),
      execute: (input) => {
        call.reached = true;
        reached(input as Record<string, unknown>);
        if (!awaitResults) return undefined;
        call.timer = setTimeout(() => {
          release({
            ok: false,
            error: new ToolwareError(
              "TOOLWARE_CLAUDE_NO_RESULT",
              `Claude Code reported no result for ${toolName} (call ${callId}) within ${this.options.resultTimeoutMs} ms`,
            ),
          });
        }, this.options.resultTimeoutMs);
        call.timer.unref?.();
        return ran.then((r) => (r.ok ? r.value : Promise.reject(r.error)));
      },
    });
    let signalAsked: () => void = () => {};
    const newAsk = () =>
      new Promise<void>((resolve) => {
        signalAsked = resolve;
      });
    const live = {
      toolName,
      callId,
      ask: (request: HumanInputRequest) =>
        new Promise<string>((resolve, reject) => {
          request.signal.addEventListener(
            "abort",
            () => reject(new HumanInputUnavailableError(`the call to ${toolName} was cancelled`)),
            { once: true },
          );
          call.question = { request, answer: resolve };
          signalAsked();
        }),
    };
    let settle: (o: ToolCallOutcome) => void = () => {};
    const call: Running = {
      tool,
      hookInput,
      digest: digestOf(hookInput.tool_input),
      outcome: new Promise<ToolCallOutcome>((resolve) => {
        settle = resolve;
      }),
      atTool,
      asked: newAsk(),
      question: undefined,
      reached: false,
      release: (r) => {
        if (call.timer !== undefined) clearTimeout(call.timer);
        release(r);
      },
      timer: undefined,
      renewAsk: () => {
        call.asked = newAsk();
      },
    };
    this.#running.set(callId, call);
    let invoked: Promise<ToolCallOutcome>;
    try {
      invoked = asCall(live, () =>
        this.hooks.invoke(tool, args, {
          ...bindings,
          callId,
          signal: controller.signal,
          framework: { name: FRAMEWORK, context: hookInput },
        }),
      );
    } catch (error) {
      invoked = Promise.reject(error);
    }
    invoked.then(settle, (error: unknown) =>
      settle(refusedOutcome(this.hooks, "claude.PreToolUse", toolName, callId, error)),
    );
    const outcome = call.outcome;
    void outcome.then((o) => {
      if (this.#running.get(callId) === call) this.#running.delete(callId);
      if (call.timer !== undefined) clearTimeout(call.timer);
      notifyOutcome(this.hooks, "claude.onOutcome", this.options.onOutcome, o, hookInput);
    });
    return { call, controller };
  }

  /** Waits until the chain reaches the tool (allow), settles without it (deny), or asks a person (ask). */
  async #next(call: Running): Promise<Decision> {
    const first = await Promise.race([
      call.atTool.then((input) => ({ at: "tool" as const, input })),
      call.outcome.then((outcome) => ({ at: "end" as const, outcome })),
      call.asked.then(() => ({ at: "asked" as const })),
    ]);
    if (first.at === "asked") {
      call.renewAsk();
      const prompt = call.question?.request.prompt ?? "";
      return { kind: "ask", reason: `toolware asks for approval: ${prompt}` };
    }
    if (first.at === "tool") {
      const changed = call.digest === undefined || digestOf(first.input) !== call.digest;
      return { kind: "allow", updatedInput: changed ? first.input : undefined };
    }
    const { outcome } = first;
    if (outcome.status === "ok") {
      // A hook answered in place of the tool (a cache hit): Claude Code takes no result from a PreToolUse hook.
      return {
        kind: "deny",
        reason: `a toolware hook answered this call in place of ${call.tool.name}, and Claude Code cannot take that answer as the tool's result: ${outcome.result}`,
      };
    }
    return { kind: "deny", reason: outcome.result };
  }

  /** `PostToolUse`: the tool's result goes through the chain's after-hooks. */
  async post(hookInput: PostToolUseHookInput): Promise<string | undefined> {
    const call = this.#running.get(hookInput.tool_use_id);
    if (call === undefined || !call.reached || call.tool.name !== hookInput.tool_name) return undefined;
    call.release({ ok: true, value: hookInput.tool_response });
    const outcome = await call.outcome;
    let own: string | undefined;
    try {
      own = formatToolResult(call.tool, hookInput.tool_response);
    } catch {
      own = undefined;
    }
    return outcome.status === "ok" && outcome.result === own ? undefined : outcome.result;
  }

  /** `PostToolUseFailure`: the tool's error goes through the chain. */
  async failed(hookInput: PostToolUseFailureHookInput): Promise<void> {
    const call = this.#running.get(hookInput.tool_use_id);
    if (call === undefined || !call.reached || call.tool.name !== hookInput.tool_name) return;
    const text = typeof hookInput.error === "string" ? hookInput.error : "the tool failed";
    call.release({ ok: false, error: new Error(text) });
    await call.outcome;
  }

  /** `canUseTool`: answers a question the chain asked through Claude Code, or Claude Code's own asks. */
  readonly canUseTool: CanUseTool = async (toolName, input, options) => {
    const id = options.toolUseID;
    const call = this.#running.get(id);
    const question = call?.question;
    if (call === undefined || question === undefined || call.tool.name !== toolName) {
      const own = await this.#askApp(toolName, input, options);
      if (own.behavior === "deny" && call !== undefined && call.reached) {
        call.release({ ok: false, error: new ToolwareError("TOOLWARE_CLAUDE_DENIED", own.message) });
      }
      return own;
    }
    call.question = undefined; // taken once
    if (!approvalAnswers(question.request.binding, toolName, id, input)) {
      question.answer("no: the arguments Claude Code asked about are not the ones the approval was asked for");
    } else {
      const own = await this.#askApp(toolName, input, options);
      question.answer(own.behavior === "allow" ? "yes" : `no: ${own.message}`);
    }
    const decision = await this.#next(call);
    if (decision.kind === "allow") return { behavior: "allow", updatedInput: decision.updatedInput ?? input };
    return { behavior: "deny", message: decision.reason };
  };

  async #askApp(
    toolName: string,
    input: Record<string, unknown>,
    options: Parameters<CanUseTool>[2],
  ): Promise<PermissionResult> {
    const app = this.options.canUseTool;
    if (app === undefined) {
      return {
        behavior: "deny",
        message: `${toolName} needs a person's approval, and no canUseTool was given to toolwareHooks()`,
      };
    }
    try {
      const answer = await app(toolName, input, options);
      if (answer?.behavior === "allow") return answer;
      if (answer?.behavior === "deny") return { ...answer, message: String(answer.message) };
      return { behavior: "deny", message: "canUseTool returned neither allow nor deny" };
    } catch (error) {
      return { behavior: "deny", message: `canUseTool failed: ${messageOf(error)}` };
    }
  }
}
