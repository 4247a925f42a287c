import type { ToolHooks as MastraHooks } from "@mastra/core/tools";
import { claimGuard, guardOf, type ToolHooks, ToolwareTypeError } from "@toolware/core";
import type { Approvals } from "./approvals.js";
import type { ChainRunner, HookCall, Skip } from "./chain.js";

/** Mastra's tool hooks (`beforeToolCall` / `afterToolCall`), as an agent or a call takes them. */
export type MastraToolHooks = MastraHooks;

/** What {@link MastraToolware.agent} needs of a Mastra `Agent`. */
export interface MastraAgentLike {
  readonly name: string;
  getConfiguredToolHooks(): unknown;
  listConfiguredOutputProcessors(): Promise<readonly unknown[]>;
  approveToolCall(options: never): unknown;
  declineToolCall(options: never): unknown;
}

const ALREADY = "TOOLWARE_MASTRA_ALREADY_GUARDED";
const HOOK_KEYS = ["beforeToolCall", "afterToolCall"];

/** Checks the hooks given to `with()`: a typo must not drop a hook, the chain must not run twice. @internal */
export function checkExtraHooks(extra: unknown): asserts extra is MastraToolHooks {
  if (extra === null || typeof extra !== "object" || Array.isArray(extra)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      "with(hooks): hooks must be { beforeToolCall?, afterToolCall? }",
    );
  }
  if (guardOf(extra) !== undefined) {
    throw new ToolwareTypeError(ALREADY, "with(hooks): these hooks run a toolware chain already; pass your own hooks");
  }
  for (const key of Object.keys(extra)) {
    if (!HOOK_KEYS.includes(key)) {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `with(hooks): unknown key \`${key}\` (allowed: ${HOOK_KEYS.join(", ")})`,
      );
    }
    if (typeof (extra as Record<string, unknown>)[key] !== "function") {
      throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", `with(hooks): \`${key}\` must be a function`);
    }
  }
}

/**
 * The chain with your hooks: the chain decides first; your `beforeToolCall` sees the arguments the
 * tool will get, and may still answer for the tool (its output then goes through the chain's
 * after-hooks); your `afterToolCall` sees the tool's own result. @internal
 */
export function composeHooks(runner: ChainRunner, extra: MastraToolHooks): MastraToolHooks {
  const { beforeToolCall: ownBefore, afterToolCall: ownAfter } = extra;
  return {
    async beforeToolCall(hc) {
      const skip: Skip | undefined = await runner.before(hc as HookCall);
      if (skip !== undefined || ownBefore === undefined) return skip;
      let own: Awaited<ReturnType<typeof ownBefore>>;
      try {
        own = await ownBefore(hc);
      } catch (error) {
        // Mastra fails the call with this error; the chain hears of it as the tool's.
        await runner.after({ ...(hc as HookCall), error });
        throw error;
      }
      if (own?.proceed === false) await runner.after({ ...(hc as HookCall), output: own.output });
      return own;
    },
    async afterToolCall(hc) {
      try {
        await runner.after(hc as HookCall);
      } finally {
        await ownAfter?.(hc);
      }
    },
  };
}

// Methods whose options take per-call `hooks` (which replace the agent's): [name, index of the options].
const RUNS: readonly (readonly [string, number])[] = [
  ["generate", 1],
  ["stream", 1],
  ["resumeGenerate", 1],
  ["resumeStream", 1],
  ["approveToolCall", 0],
  ["approveToolCallGenerate", 0],
  ["declineToolCall", 0],
  ["declineToolCallGenerate", 0],
];

/** @internal */
export function guardAgentMethods<A extends MastraAgentLike>(
  agent: A,
  hooks: ToolHooks,
  made: WeakSet<object>,
  approvals: Approvals,
  runner: ChainRunner,
  processor: object,
  compose: (extra: MastraToolHooks) => MastraToolHooks,
): A {
  const target = agent as unknown as Record<string, unknown>;
  if (
    agent === null ||
    typeof agent !== "object" ||
    typeof target.getConfiguredToolHooks !== "function" ||
    typeof target.approveToolCall !== "function"
  ) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "agent() needs an Agent from @mastra/core");
  }
  const configured = agent.getConfiguredToolHooks();
  if (configured === null || typeof configured !== "object" || !made.has(configured)) {
    throw new ToolwareTypeError(
      "TOOLWARE_MASTRA_HOOKS_MISSING",
      `agent ${agent.name} was not built with this guard's hooks: new Agent({ …, hooks: tw.hooks, outputProcessors: [tw.processor] })`,
    );
  }
  claimGuard(agent, hooks, ALREADY, `agent ${agent.name}`);
  // Without the processor the model would read results the after-hooks changed (redaction) as the tool made them.
  runner.expectProcessor(
    agent,
    Promise.resolve()
      .then(() => agent.listConfiguredOutputProcessors())
      .then(
        (list) => Array.isArray(list) && list.includes(processor),
        () => false,
      ),
  );
  for (const [name, index] of RUNS) {
    const original = target[name];
    if (typeof original !== "function") continue;
    Object.defineProperty(agent, name, {
      configurable: true,
      writable: true,
      value: function guardedRun(this: unknown, ...args: unknown[]) {
        const options = args[index] as Record<string, unknown> | undefined;
        try {
          if (name.startsWith("approve")) approvals.approve(options?.toolCallId);
          if (name.startsWith("decline")) approvals.decline(options?.toolCallId);
          const own = options?.hooks;
          // Mastra lets per-call hooks replace the agent's: yours run with the chain instead.
          if (own !== undefined && own !== null && typeof own === "object" && !made.has(own)) {
            args[index] = { ...options, hooks: compose(own as MastraToolHooks) };
          }
        } catch (error) {
          // These methods are async: a refusal is a rejected promise, as Mastra's own errors are.
          return Promise.reject(error);
        }
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      },
    });
  }
  return agent;
}
