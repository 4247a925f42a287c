import {
  type BeforeToolCallHookType,
  type HumanInputProvider,
  HumanInputTimeoutError,
  messageOf,
  type ToolCallHookContext,
} from "@toolware/core";
import { type ApprovalDecision, approval, displayJson, printable } from "@toolware/packs/approval";
import type { ApprovalDoc } from "../document.js";

/** Five minutes, the approval pack's own default. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

/** How one `approve` rule asks: the rule's `approval`, then the file's, then the pack's defaults. */
export interface ApprovalPlan {
  readonly rule: string;
  readonly doc: ApprovalDoc;
  readonly humanInput: HumanInputProvider | undefined;
  readonly onDecision: (rule: string, decision: ApprovalDecision) => void;
}

function promptOf(plan: ApprovalPlan, ctx: ToolCallHookContext, maxInputChars: number): string {
  const { doc, rule } = plan;
  const who = ctx.agent === undefined ? "" : ` for agent ${printable(ctx.agent.role)}`;
  const approvers =
    doc.approvers === undefined && doc.role === undefined
      ? ""
      : `\nApprovers: ${[...(doc.approvers ?? []), ...(doc.role === undefined ? [] : [`role ${doc.role}`])].join(", ")}`;
  const message = doc.message === undefined ? "" : `${printable(doc.message)}\n`;
  return `${message}Approve ${printable(ctx.toolName)}${who}? (policy rule ${printable(rule)})${approvers}\nInput: ${displayJson(ctx.toolInput, maxInputChars)}`;
}

const YES = new Set(["yes", "y"]);

// Asks without the approval pack's own question, for what the pack cannot do: a provider given to the policy
// (not the ToolHooks'), and a timeout that means "allow". The answer goes back to the pack as an external one.
async function askOwn(plan: ApprovalPlan, ctx: ToolCallHookContext, timeoutMs: number) {
  const prompt = promptOf(plan, ctx, 4000);
  const message = "Type 'yes' or 'y' to approve; anything else denies.";
  let answer: string;
  try {
    if (plan.humanInput === undefined) {
      answer = await ctx.requestHumanInput(prompt, message, { timeoutMs });
    } else {
      const provider = plan.humanInput;
      answer = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new HumanInputTimeoutError(`no answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
        Promise.resolve()
          .then(() =>
            provider({
              prompt,
              defaultMessage: message,
              toolName: ctx.toolName,
              callId: ctx.callId,
              signal: ctx.signal,
            }),
          )
          .then(resolve, reject)
          .finally(() => clearTimeout(timer));
      });
    }
  } catch (error) {
    if (error instanceof HumanInputTimeoutError && plan.doc.onTimeout === "allow") {
      return { approve: true };
    }
    const why = error instanceof HumanInputTimeoutError ? `no answer within ${timeoutMs} ms` : messageOf(error);
    return { approve: false, reason: why };
  }
  if (typeof answer === "string" && YES.has(answer.trim().toLowerCase())) return { approve: true };
  return {
    approve: false,
    reason: `a human did not approve (answer: ${JSON.stringify(String(answer).slice(0, 200))})`,
  };
}

/** The approval gate of one rule: the approval pack's own hook, built once at load. */
export function approvalGate(plan: ApprovalPlan): BeforeToolCallHookType {
  const timeoutMs = plan.doc.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const own = plan.humanInput !== undefined || plan.doc.onTimeout === "allow";
  const pack = approval({
    timeoutMs,
    prompt: (info) => promptOf(plan, info.ctx, info.maxInputChars),
    onDecision: (d) => plan.onDecision(plan.rule, d),
    ...(own ? { external: (ctx: ToolCallHookContext) => askOwn(plan, ctx, timeoutMs) } : {}),
  });
  const hook = pack.hooks[0];
  if (hook === undefined || hook.kind !== "before") throw new Error("the approval pack has no before hook");
  return hook.fn;
}
