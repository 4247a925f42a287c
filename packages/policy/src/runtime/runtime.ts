import { messageOf, type ToolCallHookContext } from "@toolware/core";
import type { ApprovalDecision } from "@toolware/packs/approval";
import type { CompiledPolicy } from "./compile.js";
import type { InternalDecision, PolicyCallDecision } from "./decide.js";
import { Counters, Emitter, type PolicyEvent } from "./events.js";
import { type ExplainCall, explainCall, type PolicyExplanation } from "./explain.js";
import type { CallFacts } from "./match.js";
import type { LoadPolicyOptions } from "./options.js";

export type { ExplainCall, PolicyExplanation };

declare module "@toolware/core" {
  interface ToolCallState {
    /** What the policy decided for this call (the last policy pack's, when several are registered). */
    policy?: PolicyCallDecision;
  }
}

/** A call's facts read from its context. @internal */
class ContextFacts implements CallFacts {
  readonly toolName: string;
  readonly tags: readonly string[];
  readonly destructive: boolean;
  readonly agent: string | undefined;
  readonly crew: string | undefined;
  readonly #ctx: ToolCallHookContext;
  constructor(
    ctx: ToolCallHookContext,
    readonly caller: string | undefined,
  ) {
    this.#ctx = ctx;
    this.toolName = ctx.toolName;
    this.tags = ctx.tool.tags;
    this.destructive = ctx.tool.destructive;
    this.agent = ctx.agent?.role;
    this.crew = ctx.crew?.name;
  }

  // Read only by conditions and Cedar: a call no condition looks at never builds the input's proxy.
  get args(): Readonly<Record<string, unknown>> {
    return this.#ctx.toolInput;
  }
}

/** A decision and the compiled policy that made it: a call keeps both to its end. @internal */
export interface Pinned {
  readonly compiled: CompiledPolicy;
  readonly decision: InternalDecision;
}

/** The state one policy pack shares between its hooks: the policy in force, counters, listeners. @internal */
export class PolicyRuntime {
  current: CompiledPolicy;
  readonly counters = new Counters();
  readonly events = new Emitter();
  readonly #key = Symbol("policy decision");
  readonly #options: LoadPolicyOptions;

  constructor(compiled: CompiledPolicy, options: LoadPolicyOptions) {
    this.current = compiled;
    this.#options = options;
  }

  /** The call's decision, made (and pinned to the policy in force) on first use. */
  pinned(ctx: ToolCallHookContext): Pinned {
    const state = ctx.state as Record<symbol, Pinned | undefined>;
    let p = state[this.#key];
    if (p === undefined) {
      const compiled = this.current;
      p = { compiled, decision: this.#decide(compiled, ctx) };
      state[this.#key] = p;
      ctx.state.policy = p.decision;
      this.#record(ctx, p.decision, compiled);
    }
    return p;
  }

  #decide(compiled: CompiledPolicy, ctx: ToolCallHookContext): InternalDecision {
    let caller: string | undefined;
    if (this.#options.caller !== undefined) {
      try {
        const who: unknown = this.#options.caller(ctx);
        if (who !== undefined && typeof who !== "string") throw new TypeError(`caller() returned ${typeof who}`);
        caller = who;
      } catch (error) {
        return callerFailed(compiled.version, messageOf(error));
      }
    }
    return compiled.decider.decide(new ContextFacts(ctx, caller), ctx.tool);
  }

  #record(ctx: ToolCallHookContext, decision: InternalDecision, compiled: CompiledPolicy): void {
    this.counters.count(decision, compiled.decider.rules);
    if (!this.events.active && this.#options.onEvent === undefined) return;
    const report = (error: unknown) => ctx.reportError("policy.onEvent", error);
    this.emit({ type: "decision", toolName: ctx.toolName, callId: ctx.callId, decision }, report);
    for (const hit of decision.shadowed) {
      this.emit({ type: "shadow", toolName: ctx.toolName, callId: ctx.callId, ...hit }, report);
    }
  }

  emit(event: PolicyEvent, report: (error: unknown) => void): void {
    const own = this.#options.onEvent;
    if (own !== undefined) {
      try {
        own(event);
      } catch (error) {
        report(error);
      }
    }
    this.events.emit(event, report);
  }

  /** Counts a human's answer for the rule that asked. */
  readonly onApproval = (rule: string, d: ApprovalDecision): void => {
    if (d.approved) this.counters.of(rule).approved++;
  };

  explain(call: ExplainCall): PolicyExplanation {
    return explainCall(this.current, call);
  }
}

function callerFailed(version: number, message: string): InternalDecision {
  return {
    version,
    effect: "deny",
    rule: "default",
    source: "default",
    reason: `the policy could not tell who is calling, so the call is denied: ${message}`,
    shadowed: [],
    matched: [],
    index: -1,
    matchedIndex: [],
    shadowIndex: [],
  };
}
