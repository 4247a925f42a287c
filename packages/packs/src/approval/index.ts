import {
  type ApprovalBinding,
  approvalAnswers,
  bindApproval,
  definePack,
  digestArguments,
  HumanInputTimeoutError,
  messageOf,
  type Pack,
  type ToolCallHookContext,
} from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { isAccessor, writeInPlace } from "../internal/in-place.js";
import { ownOptions } from "../internal/options.js";
import { selectorToFilter, type ToolSelector } from "../internal/tool-selector.js";
import { type AnswerWords, type ApprovalAnswer, answerProblem, parseBuiltIn } from "./answer.js";
import {
  type ApprovalDecision,
  type ApprovalOptions,
  checkOptions,
  defaultMessageFor,
  defaultPrompt,
  defaultReason,
  type ExternalApproval,
} from "./options.js";
import { type ApprovalStore, memoryApprovalStore } from "./store.js";

export { type ApprovalAnswer, displayJson, editProblem, printable } from "./answer.js";
export type {
  ApprovalDecision,
  ApprovalOptions,
  ApprovalPromptInfo,
  ApprovalSource,
  ExternalApproval,
} from "./options.js";
export { type ApprovalStore, type MemoryApprovalStore, memoryApprovalStore } from "./store.js";
export type { ToolSelector };

declare module "@toolware/core" {
  interface ToolCallState {
    /** How the approval pack settled this call. */
    approval?: ApprovalDecision;
  }
}

/** The pack {@link approval} returns. */
export type ApprovalPack = Pack<{
  /** Forgets every remembered decision of this pack's store (a promise with a remote store). */
  reset(): void | Promise<void>;
  /** How many decisions are remembered (a promise with a remote store). */
  rememberedCount(): number | Promise<number>;
}>;

type Asked =
  | { kind: "answer"; answer: string }
  | { kind: "timeout" }
  | { kind: "cancelled" }
  | { kind: "unavailable"; error: unknown };

// The intrinsic length of a typed array: a subclass's own `length` getter cannot make the named keys look like elements.
const typedLength = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "length")
  ?.get as () => number;

// Whether plain data (objects and arrays, to the depth an edit may have) holds a getter or setter anywhere.
// Each object is looked at again only from a shallower depth than before (so the depth limit never hides what a
// shorter path reaches): walked as a tree, a cycle or a shared sub-object is visited once per path to it,
// exponentially many (an input whose two keys point back at it never finished).
function heldByAccessor(value: unknown, depth = 0, seen = new WeakMap<object, number>()): boolean {
  if (value === null || typeof value !== "object" || depth > 64) return false;
  const before = seen.get(value);
  if (before !== undefined && before <= depth) return false;
  seen.set(value, depth);
  const keys = Object.keys(value);
  // A typed array's (a Buffer's) elements are numbers that no getter can hold, and Object.keys lists them first:
  // only the named keys after them are looked at, not one descriptor per byte of an uploaded file.
  const first = ArrayBuffer.isView(value) && !(value instanceof DataView) ? typedLength.call(value) : 0;
  for (let i = first; i < keys.length; i++) {
    const key = keys[i] as string;
    if (isAccessor(value, key)) return true;
    if (heldByAccessor((value as Record<string, unknown>)[key], depth + 1, seen)) return true;
  }
  return false;
}

// The fields of an answer read once: a getter cannot pass answerProblem with one `approve` or `input`
// and hand apply() another.
function ownAnswer(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  const { approve, input, remember, reason, binding } = value as ApprovalAnswer;
  return { approve, input, remember, reason, binding };
}

function digestOf(input: unknown): string | undefined {
  try {
    return digestArguments(input);
  } catch {
    return undefined;
  }
}

function bindingOf(ctx: ToolCallHookContext): ApprovalBinding | undefined {
  try {
    return bindApproval(ctx.toolName, ctx.callId, ctx.toolInput);
  } catch {
    return undefined;
  }
}

// An answer that names its call must name this one: a "yes" kept for another tool, id or arguments answers nothing here.
function bindingProblem(ctx: ToolCallHookContext, answer: ApprovalAnswer): string | undefined {
  if (answer.binding === undefined || approvalAnswers(answer.binding, ctx.toolName, ctx.callId, ctx.toolInput)) {
    return undefined;
  }
  return `the answer is bound to another call (tool, call id or arguments differ from ${ctx.toolName} call ${ctx.callId})`;
}

type Waited = { kind: "answer"; answer: ExternalApproval } | { kind: "timeout" } | { kind: "cancelled" };

/** Waits for `external`, bounded by `timeoutMs` and the call's signal (a framework's flow may pause for the user). */
function bounded(
  ctx: ToolCallHookContext,
  external: NonNullable<ApprovalOptions["external"]>,
  timeoutMs: number,
): Promise<Waited> {
  const given = external(ctx);
  if (given === undefined || given === "defer" || typeof (given as { then?: unknown }).then !== "function") {
    return Promise.resolve({ kind: "answer", answer: given as ExternalApproval });
  }
  const outer = ctx.signal;
  return new Promise<Waited>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      outer.removeEventListener("abort", onAbort);
    };
    const onAbort = (): void => {
      finish();
      resolve({ kind: "cancelled" });
    };
    if (outer.aborted) return onAbort();
    outer.addEventListener("abort", onAbort, { once: true });
    if (Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => {
        finish();
        resolve({ kind: "timeout" });
      }, timeoutMs);
    }
    Promise.resolve(given).then(
      (answer) => {
        finish();
        resolve({ kind: "answer", answer });
      },
      (error: unknown) => {
        finish();
        reject(error);
      },
    );
  });
}

/** Asks once, bounded by `timeoutMs` and the call's signal; never rejects. */
function ask(ctx: ToolCallHookContext, prompt: string, message: string, timeoutMs: number): Promise<Asked> {
  const outer = ctx.signal;
  if (outer.aborted) return Promise.resolve({ kind: "cancelled" });
  return new Promise<Asked>((resolve) => {
    // Linked so the provider stops waiting on timeout: a terminal left waiting would eat the next answer.
    const controller = new AbortController();
    ctx.linkSignal(controller.signal);
    let done = false;
    const finish = (result: Asked): void => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      outer.removeEventListener("abort", onAbort);
      resolve(result);
    };
    const onAbort = (): void => finish({ kind: "cancelled" });
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          finish({ kind: "timeout" });
          controller.abort(new HumanInputTimeoutError(`no answer within ${timeoutMs} ms`));
        }, timeoutMs)
      : undefined;
    outer.addEventListener("abort", onAbort, { once: true });
    let pending: Promise<string>;
    try {
      pending = ctx.requestHumanInput(prompt, message);
    } catch (error) {
      finish({ kind: "unavailable", error });
      return;
    }
    pending.then(
      (answer) => finish({ kind: "answer", answer }),
      (error: unknown) =>
        finish(error instanceof HumanInputTimeoutError ? { kind: "timeout" } : { kind: "unavailable", error }),
    );
  });
}

/**
 * A human approval gate: before a chosen tool runs, asks through
 * `ctx.requestHumanInput` (showing the tool and its input) and runs it only on
 * an explicit yes. Anything else denies: another answer, no answer within
 * `timeoutMs`, a cancelled call, or a failing provider (fail closed). The human
 * may also answer `edit {"path":"b.txt"}` to approve with changed arguments,
 * and, with `remember`, `always` / `never` to decide for the rest of the run.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks({ humanInput: terminalHumanInput() });
 * const gate = approval({ tools: ["send_email", "delete_file", { tag: "payments" }], remember: "tool" });
 * hooks.use(gate);
 * const out = await hooks.invoke(sendEmail, { to: "ceo@example.com" });
 * // answered "no": out.status === "blocked", out.reason === 'a human did not approve send_email (answer: "no")'
 * ```
 */
export function approval(options: ApprovalOptions = {}): ApprovalPack {
  options = ownOptions(options, "toolware/approval");
  checkOptions(options);
  const remember = options.remember ?? "none";
  const timeoutMs = options.timeoutMs ?? 300_000;
  const maxInputChars = options.maxInputChars ?? 4000;
  const editMode = options.editMode ?? "merge";
  const lower = (list: readonly string[]) => new Set(list.map((w) => w.trim().toLowerCase()));
  const words: AnswerWords = {
    approve: lower(options.approveWords ?? ["yes", "y"]),
    always: remember === "none" ? new Set() : lower(options.alwaysWords ?? ["always"]),
    never: remember === "none" ? new Set() : lower(options.neverWords ?? ["never"]),
    editPrefix: options.edits === false ? undefined : (options.editPrefix ?? "edit").trim().toLowerCase(),
  };
  const { parseAnswer, onDecision, message } = options;
  const promptOf = options.prompt ?? defaultPrompt;
  const defaultMessage = options.defaultMessage ?? defaultMessageFor(words, remember);
  const memory: ApprovalStore = options.store ?? memoryApprovalStore();
  const inflight = new Map<string, Promise<void>>();

  const keyOf = (ctx: ToolCallHookContext, input: string | undefined): string | undefined => {
    if (remember === "none") return undefined;
    if (remember === "tool") return ctx.toolName;
    return input === undefined ? undefined : `${ctx.toolName}\u0000${input}`;
  };

  const settle = (ctx: ToolCallHookContext, decided: Omit<ApprovalDecision, "binding">): void => {
    // Bound to the arguments as they now are: the call's, or the person's edit of them.
    const d: ApprovalDecision = { ...decided, binding: bindingOf(ctx) };
    ctx.state.approval = d;
    if (onDecision !== undefined) {
      try {
        onDecision(d);
      } catch (e) {
        // An audit observer: its failure must not change the decision, and goes where listener errors go.
        ctx.reportError("approval.onDecision", e);
      }
    }
    if (!d.approved) ctx.block(message === undefined ? defaultReason(d, timeoutMs) : String(message(d)));
  };

  const read = async (answer: string, ctx: ToolCallHookContext): Promise<ApprovalAnswer | string> => {
    if (parseAnswer === undefined) return parseBuiltIn(answer, words);
    try {
      const parsed = ownAnswer(await parseAnswer(answer, ctx));
      return answerProblem(parsed) ?? (parsed as ApprovalAnswer);
    } catch (e) {
      return `parseAnswer failed: ${messageOf(e)}`;
    }
  };

  async function decide(ctx: ToolCallHookContext, key: string | undefined): Promise<void> {
    const base = { toolName: ctx.toolName, callId: ctx.callId, edited: false, remembered: false };
    const external = options.external;
    const known: unknown = key === undefined ? undefined : await memory.get(key);
    // Only `true` approves: a store answering "false", 1 or null (a string from a remote store, say) would
    // otherwise approve by truthiness or deny without asking. A wrong answer is an unreadable store: it blocks.
    if (known !== undefined && typeof known !== "boolean") {
      throw packTypeError(
        "TOOLWARE_INVALID_RETURN",
        `toolware/approval: the store's get() must return true, false or undefined, got ${shown(known)}`,
      );
    }
    if (known !== undefined) {
      settle(ctx, { ...base, approved: known, source: "remembered", answer: undefined, detail: undefined });
      return;
    }
    if (external !== undefined) {
      let given: ExternalApproval;
      try {
        const waited = await bounded(ctx, external, timeoutMs);
        if (waited.kind !== "answer") {
          settle(ctx, { ...base, approved: false, source: waited.kind, answer: undefined, detail: undefined });
          return;
        }
        given = waited.answer;
      } catch (e) {
        const detail = `the external approval failed: ${messageOf(e)}`;
        settle(ctx, { ...base, approved: false, source: "unavailable", answer: undefined, detail });
        return;
      }
      if (given === "defer") {
        settle(ctx, { ...base, approved: false, source: "deferred", answer: undefined, detail: undefined });
        return;
      }
      if (given !== undefined) {
        try {
          given = ownAnswer(given) as ExternalApproval;
        } catch (e) {
          const detail = `the external approval could not be read: ${messageOf(e)}`;
          settle(ctx, { ...base, approved: false, source: "invalid-answer", answer: undefined, detail });
          return;
        }
        const problem = answerProblem(given) ?? bindingProblem(ctx, given as ApprovalAnswer);
        if (problem !== undefined) {
          settle(ctx, { ...base, approved: false, source: "invalid-answer", answer: undefined, detail: problem });
          return;
        }
        return apply(ctx, key, given as ApprovalAnswer, "external", undefined);
      }
    }
    if (heldByAccessor(ctx.toolInput)) {
      // The human approves what the prompt shows: a getter could show one value and hand the tool another.
      throw packTypeError(
        "TOOLWARE_INVALID_INPUT",
        `toolware/approval: the input of ${ctx.toolName} holds a getter or setter, so what a human approves might not be what the tool gets; pass plain data`,
      );
    }
    const prompt = promptOf({
      ctx,
      toolName: ctx.toolName,
      role: ctx.agent?.role,
      input: ctx.toolInput,
      maxInputChars,
    });
    const asked = await ask(ctx, prompt, defaultMessage, timeoutMs);
    if (asked.kind !== "answer") {
      const detail = asked.kind === "unavailable" ? messageOf(asked.error) : undefined;
      settle(ctx, { ...base, approved: false, source: asked.kind, answer: undefined, detail });
      return;
    }
    const parsed = await read(asked.answer, ctx);
    if (typeof parsed === "string") {
      settle(ctx, { ...base, approved: false, source: "invalid-answer", answer: asked.answer, detail: parsed });
      return;
    }
    return apply(ctx, key, parsed, "human", asked.answer);
  }

  async function apply(
    ctx: ToolCallHookContext,
    key: string | undefined,
    parsed: ApprovalAnswer,
    source: "human" | "external",
    answer: string | undefined,
  ): Promise<void> {
    const approved = parsed.approve === true;
    const edited = approved && parsed.input !== undefined;
    if (edited) writeInPlace(ctx.toolInput, parsed.input as Record<string, unknown>, editMode);
    const stored = key !== undefined && parsed.remember === true && !edited;
    if (stored) {
      try {
        await memory.set(key, approved);
      } catch (e) {
        // The human's answer stands for this call; only the memory of it is lost.
        ctx.reportError("approval.store", e);
      }
    }
    settle(ctx, {
      toolName: ctx.toolName,
      callId: ctx.callId,
      approved,
      source,
      answer,
      edited,
      remembered: stored,
      detail: approved ? undefined : parsed.reason,
    });
  }

  async function approvalGate(ctx: ToolCallHookContext): Promise<void> {
    const key = keyOf(ctx, remember === "tool+input" ? digestOf(ctx.toolInput) : undefined);
    if (key === undefined) return decide(ctx, undefined);
    // One question per key at a time, so an "always" answered for the first call covers those waiting.
    for (let waiting = inflight.get(key); waiting !== undefined; waiting = inflight.get(key)) await waiting;
    let release = (): void => {};
    inflight.set(key, new Promise<void>((r) => (release = r)));
    try {
      await decide(ctx, key);
    } finally {
      inflight.delete(key);
      release();
    }
  }

  const filter = options.tools === undefined ? undefined : selectorToFilter(options.tools, "toolware/approval: tools");
  return definePack({
    name: "approval",
    stateful: true,
    hooks: [
      {
        kind: "before",
        fn: approvalGate,
        options: {
          name: "approval",
          onError: "block",
          priority: options.priority ?? 0,
          ...(filter === undefined ? {} : { tools: filter }),
        },
      },
    ],
    reset: () => memory.clear(),
    rememberedCount: () => memory.count(),
  });
}
