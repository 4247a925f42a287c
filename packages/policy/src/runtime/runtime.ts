import { messageOf, type ToolCallHookContext } from "@toolware/core";
import type { ApprovalDecision } from "@toolware/packs/approval";
import type { CompiledPolicy } from "./compile.js";
import { DECIDER, deciderOf, type InternalDecision, type PolicyCallDecision } from "./decide.js";
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

const NO_TAGS: readonly string[] = Object.freeze([]);

/** A call's facts read from its context: one object per runtime, refilled for each decision. @internal */
class ContextFacts implements CallFacts {
  toolName = "";
  tags: readonly string[] = NO_TAGS;
  destructive = false;
  agent: string | undefined = undefined;
  crew: string | undefined = undefined;
  caller: string | undefined = undefined;
  ctx: ToolCallHookContext | undefined = undefined;

  fill(ctx: ToolCallHookContext, caller: string | undefined): this {
    this.ctx = ctx;
    this.toolName = ctx.toolName;
    this.tags = ctx.tool.tags;
    this.destructive = ctx.tool.destructive;
    this.agent = ctx.agent?.role;
    this.crew = ctx.crew?.name;
    this.caller = caller;
    return this;
  }

  // Read only by conditions and Cedar: a call no condition looks at never builds the input's proxy.
  get args(): Readonly<Record<string, unknown>> {
    return (this.ctx as ToolCallHookContext).toolInput;
  }
}

/** The state one policy pack shares between its hooks: the policy in force, counters, listeners. @internal */
export class PolicyRuntime {
  current: CompiledPolicy;
  readonly counters = new Counters();
  readonly events = new Emitter();
  readonly #key = Symbol("policy decision");
  readonly #options: LoadPolicyOptions;
  readonly #facts = new ContextFacts();
  #busy = false;

  constructor(compiled: CompiledPolicy, options: LoadPolicyOptions) {
    this.current = compiled;
    this.#options = options;
  }

  /** The call's decision, made (and pinned to the policy in force) on first use. */
  pinned(ctx: ToolCallHookContext): InternalDecision {
    return (ctx.state as Record<symbol, InternalDecision | undefined>)[this.#key] ?? this.#first(ctx);
  }

  /** The compiled policy that made a decision of this runtime: the call keeps it to its end. */
  compiledOf(decision: InternalDecision): CompiledPolicy {
    return (deciderOf(decision)?.owner as CompiledPolicy | undefined) ?? this.current;
  }

  #first(ctx: ToolCallHookContext): InternalDecision {
    const compiled = this.current;
    const decision = this.#decide(compiled, ctx);
    const state = ctx.state as Record<symbol, InternalDecision | undefined>;
    state[this.#key] = decision;
    ctx.state.policy = decision;
    this.#record(ctx, decision, compiled);
    return decision;
  }

  #decide(compiled: CompiledPolicy, ctx: ToolCallHookContext): InternalDecision {
    let caller: string | undefined;
    if (this.#options.caller !== undefined) {
      try {
        const who: unknown = this.#options.caller(ctx);
        if (who !== undefined && typeof who !== "string") throw new TypeError(`caller() returned ${typeof who}`);
        caller = who;
      } catch (error) {
        return callerFailed(compiled, messageOf(error));
      }
    }
    // A condition reading a hostile input can reach user code, which could start another call: that one gets its
    // own facts.
    const own = this.#busy;
    const facts = own ? new ContextFacts() : this.#facts;
    this.#busy = true;
    try {
      return compiled.decider.decide(facts.fill(ctx, caller), ctx.tool);
    } finally {
      if (!own) {
        this.#busy = false;
        facts.ctx = undefined;
        facts.tags = NO_TAGS;
      }
    }
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

function callerFailed(compiled: CompiledPolicy, message: string): InternalDecision {
  const d: InternalDecision = {
    version: compiled.version,
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
  Object.defineProperty(d, DECIDER, { value: compiled.decider });
  return d;
}
