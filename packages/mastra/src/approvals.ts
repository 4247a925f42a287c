import { type ApprovalBinding, bindApproval, type ToolCallHookContext, ToolwareTypeError } from "@toolware/core";
import { type MastraCall, mastraCall } from "./call.js";

/** What the approval pack's `external` option gets back from {@link MastraToolware.approval}. */
export type MastraApprovalAnswer =
  | { approve: boolean; reason?: string; binding?: ApprovalBinding }
  | "defer"
  | undefined;

// A question this guard asked through Mastra, and the person's answer once approveToolCall gave it.
interface Question {
  readonly binding: ApprovalBinding;
  approved: boolean;
}

const MAX_QUESTIONS = 10_000;

/**
 * The approvals of one guard: questions it asked through Mastra's suspension (by call id, bound to
 * the tool, the id and the arguments' digest) and the answers `approveToolCall` gave them, each
 * taken once. A "yes" for a call this guard never asked about is never recorded. @internal
 */
export class Approvals {
  readonly #asked = new Map<string, Question>();
  // Calls whose chain ended because the run was suspended to ask: they have not ended, they wait.
  readonly #waiting = new WeakSet<MastraCall>();
  readonly #guarded: (call: MastraCall) => boolean;

  constructor(guarded: (call: MastraCall) => boolean) {
    this.#guarded = guarded;
  }

  /** The approval pack's `external`: the answer given through Mastra, or the question asked there. */
  readonly answer = async (ctx: ToolCallHookContext): Promise<MastraApprovalAnswer> => {
    const call = mastraCall(ctx);
    // Another adapter's call, or a call Mastra gave no id: the pack asks its human-input provider as usual.
    if (call === undefined || !this.#guarded(call) || call.callId === undefined || call.callId !== ctx.callId) {
      return undefined;
    }
    const asked = this.#asked.get(call.callId);
    if (asked?.approved === true) {
      this.#asked.delete(call.callId);
      return { approve: true, binding: asked.binding };
    }
    const suspend = call.context.suspend;
    if (typeof suspend !== "function") {
      return { approve: false, reason: `Mastra gave call ${call.callId} no way to ask (no suspend)` };
    }
    // Bound to the arguments as the gate sees them: those the person is shown and the tool will get.
    const binding = bindApproval(ctx.toolName, call.callId, ctx.toolInput);
    if (this.#asked.size >= MAX_QUESTIONS) this.#asked.delete(this.#asked.keys().next().value as string);
    this.#asked.set(call.callId, { binding, approved: false });
    const args = JSON.parse(JSON.stringify(ctx.toolInput)) as Record<string, unknown>;
    this.#waiting.add(call);
    await suspend.call(call.context, undefined, {
      requireToolApproval: { toolCallId: call.callId, toolName: ctx.toolName, args },
    });
    return "defer";
  };

  /** Whether this call suspended the run to ask (its chain's "deferred" block is no end of the call). */
  waiting(call: MastraCall): boolean {
    return this.#waiting.has(call);
  }

  /** Records a "yes" given through the agent's approveToolCall: only for a question this guard asked. */
  approve(toolCallId: unknown): void {
    if (typeof toolCallId !== "string") {
      if (this.#asked.size === 0) return;
      throw new ToolwareTypeError(
        "TOOLWARE_MASTRA_APPROVAL_CALL_ID",
        "approveToolCall(): pass the `toolCallId` of the call you approve (the suspend payload's toolCallId): " +
          "a toolware approval answers one call",
      );
    }
    const asked = this.#asked.get(toolCallId);
    if (asked !== undefined) asked.approved = true;
  }

  /** Forgets the question a "no" answered: Mastra never runs a declined call. */
  decline(toolCallId: unknown): void {
    if (typeof toolCallId === "string") this.#asked.delete(toolCallId);
  }
}
