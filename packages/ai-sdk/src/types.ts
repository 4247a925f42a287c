import type { Agent, ApprovalBinding, Crew, Task, ToolCallOutcome } from "@toolware/core";
import type { ModelMessage } from "ai";

/** The SDK's answer to an approval request for one call, read from the messages of the run. */
export interface AiSdkApprovalResponse {
  readonly approvalId: string;
  readonly approved: boolean;
  readonly reason: string | undefined;
  /** The call this answer is bound to: the tool, the call id and the digest of the arguments the user saw. */
  readonly binding: ApprovalBinding;
}

/**
 * What the AI SDK passed for one tool call: `bind` and `onOutcome` receive it, and hooks read it
 * with {@link aiSdkCall}.
 */
export interface AiSdkCallContext {
  /** The key of the tool in the tool set. */
  readonly toolName: string;
  /** The SDK's call id; it is also the toolware call id (`ctx.callId`, `outcome.callId`). */
  readonly toolCallId: string;
  /** The input as the SDK parsed and validated it (before any hook rewrote it). */
  readonly input: unknown;
  /** The messages that led to the call (no system prompt, no assistant message holding the call). */
  readonly messages: readonly ModelMessage[];
  /** The run's abort signal; undefined when the caller passed none. */
  readonly abortSignal: AbortSignal | undefined;
  /** ai 6: the run's `experimental_context`. */
  readonly experimentalContext: unknown;
  /** ai 7: the tool's own context (`toolsContext[toolName]`). */
  readonly toolContext: unknown;
  /**
   * The user's answer when this call went through the SDK's approval flow: only an answer to a
   * request for this tool, this id and these arguments, not yet used by another call.
   */
  readonly approvalResponse: AiSdkApprovalResponse | undefined;
  /**
   * `"approval"` while the SDK asks whether the call needs approval (`needsApproval` or
   * `toolApproval`): only then can an approval be handed to the user. `"execute"` otherwise.
   */
  readonly phase: "approval" | "execute";
}

/** What `bind` returns: who makes this call. */
export interface AiSdkBindings {
  agent?: Agent | undefined;
  task?: Task | undefined;
  crew?: Crew | undefined;
}

/** A tool of the set that cannot run through the chain. */
export interface UnguardableTool {
  readonly toolName: string;
  /** `provider-executed`: the provider runs it (web search, code execution); `no-execute`: the app supplies results. */
  readonly kind: "provider-executed" | "no-execute";
}

/** What the app says about an AI SDK tool that the SDK cannot say: toolware's metadata. */
export interface AiSdkToolInfo {
  /** Marks the tool destructive for guardrails and approval (`{ destructive: true }` selectors). */
  readonly destructive?: boolean;
  /** The tool's tags, for filters and `{ tag }` selectors. */
  readonly tags?: readonly string[];
}

/** Options of {@link guardTools}; `NAMES` are the set's tool names. */
export interface GuardToolsOptions<NAMES extends string = string> {
  /** Picks the agent, task and crew of each call from what the SDK passed. A throw fails the call closed. */
  bind?: (call: AiSdkCallContext) => AiSdkBindings | undefined;
  /** Sees toolware's outcome of every call; a throw is reported where listener errors go and changes nothing. */
  onOutcome?: (outcome: ToolCallOutcome, call: AiSdkCallContext) => void;
  /**
   * Tools that never run locally cannot be guarded. Default `"throw"`: `guardTools` refuses the set
   * (TOOLWARE_UNGUARDABLE_TOOL). A function accepts them: it is told of each one, and they pass unguarded.
   */
  unguardable?: "throw" | ((tool: UnguardableTool) => void);
  /**
   * Installs `needsApproval` on every guarded tool so that the approval pack (with
   * `external: aiSdkApproval`) can hand a call to the SDK's approval flow. Needed on ai 6; on ai 7
   * pass `toolApproval(tools)` instead (it also turns blocks into the SDK's automatic denial).
   */
  nativeApproval?: boolean;
  /**
   * toolware's metadata by tool name, so filters, `{ tag }` and `{ destructive: true }` selectors
   * apply to SDK tools: `{ delete_file: { destructive: true, tags: ["fs"] } }`. A name that is not
   * one of the set's tools is refused (TOOLWARE_UNKNOWN_OPTION).
   */
  tools?: { readonly [K in NAMES]?: AiSdkToolInfo };
}
