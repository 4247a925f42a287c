import type { CallBindings } from "@toolware/core";

/**
 * The `_meta` keys toolware reads and writes on `tools/call`. A guarded client writes the call's
 * bindings under them; a guarded server's `bind` can read them back with {@link readToolwareMeta}.
 * They are the client's word: a server should map them to its own agents, never trust them as identity.
 */
export const TOOLWARE_META = Object.freeze({
  /** The role of the calling agent. */
  agent: "toolware/agent",
  /** The description of the task the call serves. */
  task: "toolware/task",
  /** The name of the crew. */
  crew: "toolware/crew",
  /** The client's call id (the model's tool-call id when the caller gave one). */
  callId: "toolware/callId",
} as const);

/** What {@link readToolwareMeta} found: each key is a non-empty string or absent. */
export interface ToolwareMeta {
  readonly agent?: string;
  readonly task?: string;
  readonly crew?: string;
  readonly callId?: string;
}

function text(meta: Record<string, unknown>, key: string): string | undefined {
  if (!Object.hasOwn(meta, key)) return undefined;
  const value = meta[key];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * Reads toolware's keys from a request's `_meta` (a server's `extra._meta`). Anything that is not a
 * non-empty string is left out, so a hostile client cannot smuggle objects into a policy.
 *
 * @example
 * ```ts
 * const { agent } = readToolwareMeta(extra._meta); // "researcher"
 * ```
 */
export function readToolwareMeta(meta: unknown): ToolwareMeta {
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return {};
  const m = meta as Record<string, unknown>;
  const out: { agent?: string; task?: string; crew?: string; callId?: string } = {};
  const agent = text(m, TOOLWARE_META.agent);
  const task = text(m, TOOLWARE_META.task);
  const crew = text(m, TOOLWARE_META.crew);
  const callId = text(m, TOOLWARE_META.callId);
  if (agent !== undefined) out.agent = agent;
  if (task !== undefined) out.task = task;
  if (crew !== undefined) out.crew = crew;
  if (callId !== undefined) out.callId = callId;
  return out;
}

/** The `_meta` a guarded client sends: the caller's own keys, then toolware's for this call. @internal */
export function metaFor(
  own: Record<string, unknown> | undefined,
  bindings: Pick<CallBindings, "agent" | "task" | "crew">,
  callId: string,
): Record<string, unknown> {
  const meta: Record<string, unknown> = { ...own, [TOOLWARE_META.callId]: callId };
  if (bindings.agent !== undefined) meta[TOOLWARE_META.agent] = bindings.agent.role;
  if (bindings.task !== undefined) meta[TOOLWARE_META.task] = bindings.task.description;
  if (bindings.crew?.name !== undefined) meta[TOOLWARE_META.crew] = bindings.crew.name;
  return meta;
}
