import { Agent, type CallBindings, Crew, Task, ToolwareTypeError } from "@toolware/core";

/** Who makes a call, as an adapter's `bind` picks it for each call. */
export interface McpBindings {
  agent?: Agent | undefined;
  task?: Task | undefined;
  crew?: Crew | undefined;
}

const KEYS = new Set(["agent", "task", "crew"]);

function invalid(message: string): ToolwareTypeError {
  return new ToolwareTypeError("TOOLWARE_INVALID_BINDINGS", message);
}

/**
 * Runs a `bind` option and checks what it returned, so that a wrong value fails this call (closed)
 * instead of reaching `invoke` as a rejection. Throws a coded error; the adapters catch it. @internal
 */
export function runBind<C>(bind: ((call: C) => McpBindings) | undefined, call: C, where: string): McpBindings {
  if (bind === undefined) return {};
  const bound: unknown = bind(call);
  if (bound === undefined) return {};
  if (bound === null || typeof bound !== "object" || Array.isArray(bound)) {
    throw invalid(
      `${where} bind() must return { agent?, task?, crew? }, got ${bound === null ? "null" : typeof bound}`,
    );
  }
  if (bound instanceof Promise) throw invalid(`${where} bind() must return its bindings synchronously, not a Promise`);
  const b = bound as Record<string, unknown>;
  for (const key of Object.keys(b)) {
    if (!KEYS.has(key))
      throw invalid(`${where} bind() returned an unknown key \`${key}\` (allowed: agent, task, crew)`);
  }
  const { agent, task, crew } = b;
  if (agent !== undefined && !(agent instanceof Agent)) throw invalid(`${where} bind(): \`agent\` must be an Agent`);
  if (task !== undefined && !(task instanceof Task)) throw invalid(`${where} bind(): \`task\` must be a Task`);
  if (crew !== undefined && !(crew instanceof Crew)) throw invalid(`${where} bind(): \`crew\` must be a Crew`);
  return { agent, task, crew } as McpBindings;
}

/** The framework names the adapters give `ctx.framework`. */
export type McpFrameworkName = "mcp-client" | "mcp-server";

/** The bindings an adapter hands to `invoke`. @internal */
export function callBindings(
  bound: McpBindings,
  signal: AbortSignal | undefined,
  callId: string,
  framework: { name: McpFrameworkName; context: unknown },
): CallBindings {
  return { ...bound, signal, callId, framework };
}
