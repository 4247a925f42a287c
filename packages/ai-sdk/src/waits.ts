import { ApprovalLedger, digestArguments, type ToolCallOutcome } from "@toolware/core";
import { type AiSdkApprovalAnswer, answerOf, type SdkCallOptions } from "./call.js";
import type { Gate } from "./gates.js";
import { findApprovalResponse } from "./history.js";

/** A chain started in the SDK's approval phase. @internal */
export interface Started {
  readonly outcome: Promise<ToolCallOutcome>;
  /** Resolves when the chain reaches the tool (it then waits for `release`). */
  readonly atTool: Promise<"tool">;
  /** Resolves when the chain handed the call to the user (it then waits for the answer). */
  readonly asked: Promise<"asked">;
  readonly release: (gate: Gate) => void;
  readonly controller: AbortController;
}

interface Waiting {
  readonly digest: string | undefined;
  readonly input: unknown;
  readonly started: Started;
  answer(value: AiSdkApprovalAnswer): void;
}

/** How a call found the questions of its tool. */
export type Answered =
  | { readonly kind: "none" }
  | { readonly kind: "waiting" }
  | { readonly kind: "superseded" }
  | { readonly kind: "answered"; readonly started: Started };

// Questions nobody answers end with the approval pack's timeout; this bounds how many wait at once.
const MAX_WAITING = 256;

function digestOf(input: unknown): string | undefined {
  try {
    return digestArguments(input);
  } catch {
    return undefined;
  }
}

/**
 * The questions of one guarded tool that wait for the user's answer in the SDK's approval flow, by
 * call id, and the answers already used. A question is asked for one call: an answer reaches it only
 * when the messages answer a request for the same tool, id and arguments; a later call that reuses
 * the id with other arguments ends the question (denied) and is asked anew.
 *
 * @internal
 */
export class Waits {
  readonly ledger = new ApprovalLedger(10_000);
  readonly #waiting = new Map<string, Waiting>();

  get size(): number {
    return this.#waiting.size;
  }

  /** Registers the question of a chain; the promise is the answer it will get. */
  wait(id: string, input: unknown, started: Started): Promise<AiSdkApprovalAnswer> {
    const before = this.#waiting.get(id);
    if (before !== undefined) this.#end(id, before, `call ${id} was asked again`);
    if (this.#waiting.size >= MAX_WAITING) {
      const [oldId, oldest] = this.#waiting.entries().next().value as [string, Waiting];
      this.#end(oldId, oldest, "too many questions wait for an answer");
    }
    return new Promise<AiSdkApprovalAnswer>((answer) => {
      this.#waiting.set(id, { digest: digestOf(input), input, started, answer });
    });
  }

  /** Forgets the question of a chain that has ended (answered, timed out, cancelled). */
  ended(id: string, started: Started): void {
    if (this.#waiting.get(id)?.started === started) this.#waiting.delete(id);
  }

  /**
   * Hands the messages' answers to the questions they answer: a denial to whichever question it is
   * bound to (the SDK runs nothing for a denied call), this call's approval to this call's question.
   */
  answer(toolName: string, input: unknown, options: SdkCallOptions): Answered {
    const id = options.toolCallId;
    for (const [otherId, waiting] of this.#waiting) {
      if (otherId === id) continue;
      const response = findApprovalResponse(options.messages, { toolCallId: otherId, toolName, input: waiting.input });
      if (response !== undefined && !response.approved && this.ledger.take(response.approvalId)) {
        this.#waiting.delete(otherId);
        waiting.answer(answerOf(response));
      }
    }
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return { kind: "none" };
    if (waiting.digest === undefined || waiting.digest !== digestOf(input)) {
      // The id now names another call: the question asked for the first one answers nothing.
      this.#end(id, waiting, `its call id ${id} was reused by another call`);
      return { kind: "superseded" };
    }
    const response = findApprovalResponse(options.messages, { toolCallId: id, toolName, input });
    if (response === undefined || !this.ledger.take(response.approvalId)) return { kind: "waiting" };
    this.#waiting.delete(id);
    waiting.answer(answerOf(response));
    return { kind: "answered", started: waiting.started };
  }

  /** Ends the question of a call, if one waits. */
  withdraw(id: string, why: string): void {
    const waiting = this.#waiting.get(id);
    if (waiting !== undefined) this.#end(id, waiting, why);
  }

  #end(id: string, waiting: Waiting, why: string): void {
    this.#waiting.delete(id);
    waiting.answer({ approve: false, reason: `the question was withdrawn: ${why}` });
  }
}
