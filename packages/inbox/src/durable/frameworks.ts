import { type ApprovalBinding, bindApproval, digestArguments, messageOf, toolwareCode } from "@toolware/core";
import type { ResumeCall } from "../contract.js";
import type { InboxCallStatus, InboxResolver } from "./resolver.js";

// The frameworks' shapes, written here without importing them: the inbox depends on no adapter.

/** A paused call still waiting in the inbox: show `url` to a person, keep `resumeToken` with the run. */
export type PendingCall = ResumeCall & Extract<InboxCallStatus, { kind: "pending" }>;

/** What each helper found: the decisions it handed to the framework, and the calls still pending. */
export interface Resolved<T> {
  readonly decided: T;
  readonly pending: readonly PendingCall[];
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;

// A call the inbox refuses (arguments it cannot digest, a forged request) is denied: a guard fails closed. A store
// that does not answer decides nothing: the helper rejects, and the app tries again later.
async function look(resolver: InboxResolver, call: ResumeCall): Promise<InboxCallStatus> {
  try {
    return await resolver.status(call);
  } catch (error) {
    if (toolwareCode(error) === "TOOLWARE_INBOX_STORE") throw error;
    return { kind: "denied", requestId: undefined, reason: `the inbox refused the call: ${messageOf(error)}` };
  }
}

/** An ai 7 `tool-approval-response` part. */
export interface AiSdkApprovalResponsePart {
  readonly type: "tool-approval-response";
  readonly approvalId: string;
  readonly approved: boolean;
  readonly reason?: string;
}

/**
 * ai 7: the answers the inbox holds for the unanswered `tool-approval-request`s in a conversation.
 * Append them as `{ role: "tool", content: decided }` and call `generateText` again; the approval
 * pack (with `inboxApproval`) then applies the inbox's decision, once, when the call runs.
 *
 * @example
 * ```ts
 * const { decided, pending } = await aiSdkResponses(resolver, messages);
 * if (decided.length > 0) messages.push({ role: "tool", content: [...decided] });
 * ```
 */
export async function aiSdkResponses(
  resolver: InboxResolver,
  messages: readonly unknown[],
): Promise<Resolved<AiSdkApprovalResponsePart[]>> {
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const asked: { approvalId: string; call: ResumeCall }[] = [];
  const answered = new Set<unknown>();
  for (const message of Array.isArray(messages) ? messages : []) {
    const content = record(message)?.content;
    if (!Array.isArray(content)) continue;
    for (const item of content) {
      const part = record(item);
      if (part?.type === "tool-call" && typeof part.toolCallId === "string" && typeof part.toolName === "string") {
        calls.set(part.toolCallId, { toolName: part.toolName, input: part.input });
      } else if (part?.type === "tool-approval-request" && part.isAutomatic !== true) {
        const found = typeof part.toolCallId === "string" ? calls.get(part.toolCallId) : undefined;
        if (typeof part.approvalId === "string" && found !== undefined)
          asked.push({ approvalId: part.approvalId, call: { ...found, callId: part.toolCallId as string } });
      } else if (part?.type === "tool-approval-response") answered.add(part.approvalId);
    }
  }
  const decided: AiSdkApprovalResponsePart[] = [];
  const pending: PendingCall[] = [];
  for (const { approvalId, call } of asked) {
    if (answered.has(approvalId)) continue;
    const s = await look(resolver, call);
    if (s.kind === "pending") pending.push({ ...call, ...s });
    else if (s.kind === "approved") decided.push({ type: "tool-approval-response", approvalId, approved: true });
    else {
      const reason = `${call.toolName} was not approved: ${s.reason}`;
      decided.push({ type: "tool-approval-response", approvalId, approved: false, reason });
    }
  }
  return { decided, pending };
}

/** The part of an `@openai/agents` `RunState` this helper uses. */
export interface RunStateLike<Item> {
  getInterruptions(): Item[];
  approve(item: Item): void;
  reject(item: Item, options?: { message?: string }): void;
}

function functionCallOf(item: unknown): ResumeCall | undefined {
  const raw = record(record(item)?.rawItem);
  if (raw?.type !== "function_call" || typeof raw.name !== "string" || typeof raw.callId !== "string") return undefined;
  let input: unknown;
  try {
    input = JSON.parse(String(raw.arguments));
  } catch {
    return undefined;
  }
  return { toolName: raw.name, callId: raw.callId, input };
}

/**
 * OpenAI Agents: approves or rejects the run's interruptions as the inbox decided (a rejection's
 * reason becomes the message the model reads), leaves the pending ones. Run the agent on the state
 * again; the approval pack applies the decision, once, an edit included.
 *
 * @example
 * ```ts
 * const state = await RunState.fromString(agent, saved);
 * const { decided } = await resolveRunState(resolver, state);
 * if (decided > 0) await run(agent, state);
 * ```
 */
export async function resolveRunState<Item>(
  resolver: InboxResolver,
  state: RunStateLike<Item>,
): Promise<Resolved<number>> {
  let decided = 0;
  const pending: PendingCall[] = [];
  for (const item of state.getInterruptions()) {
    const call = functionCallOf(item);
    // Not a function call the inbox can bind (a hosted tool, arguments that are not JSON): left to the app.
    if (call === undefined) continue;
    const s = await look(resolver, call);
    if (s.kind === "pending") {
      pending.push({ ...call, ...s });
      continue;
    }
    if (s.kind === "approved") state.approve(item);
    else state.reject(item, { message: `${call.toolName} was not approved: ${s.reason}` });
    decided++;
  }
  return { decided, pending };
}

/** An interrupt of a paused LangGraph run, as `result.__interrupt__` lists it. */
export interface LangGraphInterruptLike {
  readonly id?: string;
  readonly value?: unknown;
}

function argsOf(messages: readonly unknown[], callId: string, toolName: string): unknown {
  for (let i = messages.length - 1; i >= 0; i--) {
    const calls = record(messages[i])?.tool_calls;
    if (!Array.isArray(calls)) continue;
    for (const c of calls) {
      const call = record(c);
      if (call?.id === callId && call.name === toolName) return call.args;
    }
  }
  return undefined;
}

function digestOf(input: unknown): string | undefined {
  try {
    return digestArguments(input);
  } catch {
    return undefined;
  }
}

/**
 * LangGraph: the resume value for a run paused by `interruptHumanInput()`: `{ [interruptId]: { answer,
 * binding } }` for each question the inbox has decided (`undefined` when none is), so
 * `agent.invoke(new Command({ resume }), config)` hands each call the inbox's decision. `messages` are
 * the paused state's messages: the call's arguments are read from its tool call, checked against the
 * digest the question carries.
 *
 * @example
 * ```ts
 * const { decided } = await langGraphResume(resolver, paused.__interrupt__ ?? [], paused.messages);
 * if (decided !== undefined) await agent.invoke(new Command({ resume: decided }), config);
 * ```
 */
export async function langGraphResume(
  resolver: InboxResolver,
  interrupts: readonly LangGraphInterruptLike[],
  messages: readonly unknown[],
): Promise<Resolved<Record<string, { answer: string; binding: ApprovalBinding }> | undefined>> {
  const decided: Record<string, { answer: string; binding: ApprovalBinding }> = {};
  const pending: PendingCall[] = [];
  for (const it of Array.isArray(interrupts) ? interrupts : []) {
    const value = record(it?.value);
    const binding = record(value?.binding);
    if (value?.kind !== "toolware/human-input" || typeof it.id !== "string" || binding === undefined) continue;
    const toolName = String(value.toolName);
    const callId = String(value.callId);
    const input = argsOf(Array.isArray(messages) ? messages : [], callId, toolName);
    // Only the call the question was asked for: the arguments in the state must be the ones it asked about.
    if (input === undefined || digestOf(input) !== binding.digest) continue;
    const call = { toolName, callId, input };
    const s = await look(resolver, call);
    if (s.kind === "pending") pending.push({ ...call, ...s });
    else
      decided[it.id] = { answer: s.kind === "approved" ? "yes" : "no", binding: bindApproval(toolName, callId, input) };
  }
  return { decided: Object.keys(decided).length === 0 ? undefined : decided, pending };
}
