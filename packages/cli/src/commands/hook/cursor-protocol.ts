import { randomUUID } from "node:crypto";

/** Cursor's events that gate a tool call; every other event only observes, and gets no answer. */
const GATES = new Set(["beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "preToolUse"]);

/** The decision the Claude Code adapter gives, which every dialect translates. */
export type PreOutput = {
  hookSpecificOutput?: {
    permissionDecision?: string;
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
  };
};

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

// Cursor documents the MCP arguments both as an object and as a JSON string; a string that is not JSON stays a
// string, which the adapter refuses (TOOLWARE_INVALID_INPUT), so the call is denied rather than checked as `{}`.
function argumentsOf(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * Cursor's hook input as the PreToolUse input the Claude Code adapter decides, with tool names shared with Claude Code
 * so one policy file serves both: beforeShellExecution is `Bash` ({ command }), beforeReadFile is `Read`
 * ({ file_path }), beforeMCPExecution is `mcp__cursor__<tool>` (Cursor does not name the server), preToolUse keeps
 * Cursor's tool name and input. `undefined` for an event that only observes.
 */
export function cursorInput(input: Record<string, unknown>): Record<string, unknown> | undefined {
  const event = input.hook_event_name;
  if (typeof event !== "string" || !GATES.has(event)) return undefined;
  const roots = Array.isArray(input.workspace_roots) ? input.workspace_roots : [];
  const cwd = text(roots[0]) ?? text(input.cwd);
  const call = (tool_name: unknown, tool_input: unknown) => ({
    hook_event_name: "PreToolUse",
    session_id: text(input.conversation_id) ?? "cursor",
    transcript_path: "",
    ...(cwd === undefined ? {} : { cwd }),
    permission_mode: "default",
    tool_name,
    tool_input,
    // Cursor gives no call id for the specific events: each hook run is one call, with an id of its own.
    tool_use_id: text(input.tool_use_id) ?? `cursor_${randomUUID()}`,
  });
  if (event === "beforeShellExecution") return call("Bash", { command: input.command });
  if (event === "beforeReadFile") return call("Read", { file_path: input.file_path });
  if (event === "beforeMCPExecution") {
    const name = text(input.tool_name);
    return call(name === undefined ? undefined : `mcp__cursor__${name}`, argumentsOf(input.tool_input));
  }
  return call(input.tool_name, argumentsOf(input.tool_input));
}

/**
 * The adapter's decision in Cursor's words: `permission` with `user_message` (shown to the user) and `agent_message`
 * (read by the agent). Only preToolUse takes `updated_input`; on the specific events a rewrite cannot be expressed,
 * so the call is denied, saying so. beforeReadFile answers `permission` alone and cannot ask: asking denies there.
 * A call the policy lets through unchanged gets no decision unless `allow` (`--allow`).
 */
export function cursorOutput(event: string, output: PreOutput, allow: boolean): object | undefined {
  const d = output.hookSpecificOutput;
  const read = event === "beforeReadFile";
  const say = (permission: string, why: string) =>
    read ? { permission } : { permission, user_message: why, agent_message: why };
  if (d?.permissionDecision === "allow") {
    if (d.updatedInput === undefined) return allow ? { permission: "allow" } : undefined;
    if (event === "preToolUse") {
      if (allow) return { permission: "allow", updated_input: d.updatedInput };
      return {
        ...say("ask", "toolware rewrote the arguments of this call: check the new ones"),
        updated_input: d.updatedInput,
      };
    }
    return say("deny", `toolware rewrote the arguments of this call, and Cursor's ${event} hook cannot pass new ones`);
  }
  const reason = d?.permissionDecisionReason ?? "toolware denied the call";
  if (d?.permissionDecision === "ask") {
    return read ? { permission: "deny" } : say("ask", reason);
  }
  return say("deny", reason);
}
