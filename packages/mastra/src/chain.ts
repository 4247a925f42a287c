import {
  bindCall,
  defineTool,
  HookFailedError,
  notifyOutcome,
  readArguments,
  refusedOutcome,
  type Tool,
  type ToolCallOutcome,
  type ToolHooks,
  ToolwareError,
} from "@toolware/core";
import { callIdOf, FRAMEWORK_NAME, field, type MastraCall, type MastraToolContext } from "./call.js";
import type { MastraToolwareOptions } from "./guard.js";
import { outputOf, replacementOf } from "./outcome.js";

const ADAPTER = "@toolware/mastra";
// Results waiting for the output processor: an agent without it never takes them, so the oldest go.
const MAX_REPLACED = 10_000;

/** What Mastra passes `beforeToolCall` (and, with `output` or `error`, `afterToolCall`). */
export interface HookCall {
  readonly toolName: string;
  readonly input: unknown;
  readonly context: unknown;
  readonly metadata?: unknown;
  readonly output?: unknown;
  readonly error?: unknown;
}

/** `{ proceed: false, output }`: Mastra skips the tool and the model reads `output`. */
export interface Skip {
  readonly proceed: false;
  readonly output: unknown;
}

// A call whose chain reached the tool: Mastra runs the tool, afterToolCall hands its result back here.
interface Running {
  readonly settle: (result: { output: unknown } | { error: unknown }) => void;
  readonly outcome: Promise<ToolCallOutcome>;
  readonly call: MastraCall;
  readonly tool: Tool<never, unknown>;
}

// Makes the object Mastra passes to the tool hold exactly the chain's arguments: Mastra hands the
// tool the object the hook got (its own copy of the model's arguments), so a rewrite must happen in place.
function rewriteInPlace(target: Record<string, unknown>, args: Record<string, unknown>): void {
  if (target === args) return;
  for (const key of Object.keys(target)) if (!Object.hasOwn(args, key)) delete target[key];
  for (const key of Object.keys(args)) target[key] = args[key];
}

/**
 * The toolware chain split across Mastra's two hooks: `before` runs the hooks up to the tool and
 * lets Mastra run it; `after` hands the tool's result to the chain's after-hooks. A result the
 * hooks changed is kept for the output processor, the one place Mastra lets a result change. @internal
 */
export class ChainRunner {
  readonly #running = new WeakMap<object, Running>();
  // Results the model must read instead of the tool's own, by call id, until the processor takes them.
  readonly #replaced = new Map<string, { toolName: string; output: string }>();
  readonly #hooks: ToolHooks;
  readonly #options: MastraToolwareOptions;
  readonly #calls = new WeakSet<MastraCall>();
  // Per agent (by Mastra's agentId): whether it was built with this guard's output processor.
  readonly #processorChecks = new Map<string, Promise<boolean>>();

  constructor(hooks: ToolHooks, options: MastraToolwareOptions) {
    this.#hooks = hooks;
    this.#options = options;
  }

  /** Whether this call came through this runner. */
  owns(call: MastraCall): boolean {
    return this.#calls.has(call);
  }

  /** Makes the calls of `agent` fail closed when `check` finds the agent without the output processor. */
  expectProcessor(agent: object, check: Promise<boolean>): void {
    const id = field(agent, "id");
    if (typeof id === "string") this.#processorChecks.set(id, check);
  }

  async #checkProcessor(metadata: unknown): Promise<void> {
    const id = field(metadata, "agentId");
    const check = typeof id === "string" ? this.#processorChecks.get(id) : undefined;
    if (check !== undefined && !(await check)) {
      throw new ToolwareError(
        "TOOLWARE_MASTRA_PROCESSOR_MISSING",
        `agent ${id} has no toolware output processor: add outputProcessors: [tw.processor], or the model reads results the hooks changed (redaction) as the tool made them`,
      );
    }
  }

  /** Set by the guard: calls that wait for an answer through Mastra, whose outcome is not their end. */
  waiting: (call: MastraCall) => boolean = () => false;

  #notify(outcome: ToolCallOutcome, call: MastraCall): void {
    if (this.waiting(call)) return;
    notifyOutcome(this.#hooks, "mastra.onOutcome", this.#options.onOutcome, outcome, call);
  }

  #toolFor(name: string, execute: (args: Record<string, unknown>) => Promise<unknown>): Tool<never, unknown> {
    const info = this.#options.tools?.[name] ?? {};
    return defineTool({
      name,
      destructive: info.destructive === true,
      tags: [...(info.tags ?? [])],
      execute,
    }) as unknown as Tool<never, unknown>;
  }

  async before(hc: HookCall): Promise<Skip | undefined> {
    const toolName = typeof field(hc, "toolName") === "string" ? (field(hc, "toolName") as string) : "";
    const sent = field(hc, "input");
    const rawContext = field(hc, "context");
    const context = (rawContext !== null && typeof rawContext === "object" ? rawContext : {}) as MastraToolContext;
    const callId = callIdOf(context);
    const metadata = field(hc, "metadata") as MastraCall["metadata"];
    let call: MastraCall = { toolName, callId, input: {}, context, metadata };
    let started = false;
    try {
      if (toolName === "") throw new ToolwareError("TOOLWARE_INVALID_INPUT", "the tool call names no tool");
      const input = readArguments(toolName, sent);
      call = { toolName, callId, input: { ...input }, context, metadata };
      this.#calls.add(call);
      await this.#checkProcessor(metadata);
      const bound = bindCall(this.#options.bind, call, ADAPTER);
      started = true;
      let reached: ((args: Record<string, unknown>) => void) | undefined;
      const gate = new Promise<Record<string, unknown>>((resolve) => (reached = resolve));
      let settle: Running["settle"] = () => {};
      let ran = false;
      const tool = this.#toolFor(toolName, (args) => {
        // Mastra runs the tool once per call: a hook that asks for a second run (a retry) gets an error.
        if (ran) {
          return Promise.reject(
            new ToolwareError(
              "TOOLWARE_MASTRA_SINGLE_RUN",
              `Mastra runs ${toolName} once per call; it cannot run again`,
            ),
          );
        }
        ran = true;
        return new Promise((resolve, reject) => {
          settle = (r) => ("error" in r ? reject(r.error) : resolve(r.output));
          reached?.(args);
        });
      });
      const signal = field(context, "abortSignal");
      const outcome = this.#hooks.invoke(tool as Tool<Record<string, unknown>, unknown>, input, {
        ...bound,
        ...(signal instanceof AbortSignal ? { signal } : {}),
        ...(callId === undefined ? {} : { callId }),
        framework: { name: FRAMEWORK_NAME, context: call },
      });
      const first = await Promise.race([gate.then((args) => ({ args })), outcome.then((done) => ({ done }))]);
      if ("done" in first) {
        this.#notify(first.done, call);
        return { proceed: false, output: outputOf(first.done, tool) };
      }
      rewriteInPlace(input, first.args);
      this.#running.set(context, { settle: (r) => settle(r), outcome, call, tool });
      return undefined;
    } catch (error) {
      // Only a "throw"-policy hook makes the call reject: the app asked for the run to fail.
      if (error instanceof HookFailedError) throw error;
      const refused = started ? undefined : { input: sent };
      const outcome = refusedOutcome(this.#hooks, ADAPTER, toolName || "(unnamed)", callId ?? "", error, refused);
      this.#notify(outcome, call);
      return { proceed: false, output: outcome.result };
    }
  }

  /** Whether this call's chain is waiting for the tool Mastra runs. */
  isRunning(context: unknown): boolean {
    return context !== null && typeof context === "object" && this.#running.has(context);
  }

  async after(hc: HookCall): Promise<void> {
    const context = field(hc, "context");
    if (context === null || typeof context !== "object") return;
    const running = this.#running.get(context);
    if (running === undefined) return;
    this.#running.delete(context);
    const error = field(hc, "error");
    running.settle(error === undefined ? { output: field(hc, "output") } : { error });
    const outcome = await running.outcome;
    this.#notify(outcome, running.call);
    // A tool that threw: Mastra rethrows and the model reads Mastra's error text; no processor sees it.
    if (error !== undefined) return;
    const replacement = replacementOf(outcome, running.tool);
    if (replacement !== undefined && running.call.callId !== undefined) {
      if (this.#replaced.size >= MAX_REPLACED) this.#replaced.delete(this.#replaced.keys().next().value as string);
      this.#replaced.set(running.call.callId, { toolName: running.call.toolName, output: replacement });
    }
  }

  /** The model-facing result of a finished call, taken once (the processor's part). */
  takeReplacement(callId: string, toolName: string): string | undefined {
    const entry = this.#replaced.get(callId);
    if (entry === undefined || entry.toolName !== toolName) return undefined;
    this.#replaced.delete(callId);
    return entry.output;
  }
}
