import { defineCommand } from "../kit.js";
import { allowOption, HOOK_OPTIONS, runHook } from "./claude-code.js";

/** `toolware hook cursor --policy FILE`: a Cursor agent hook deciding every gated tool call by a policy file. */
export const cursor = defineCommand({
  name: "cursor",
  summary: "decide Cursor's tool calls by a policy file (beforeShellExecution, beforeMCPExecution, … hooks)",
  description: [
    "A Cursor agent hook: reads the hook input (JSON) on stdin, decides the call by the policy file and exits 0.",
    "Gates beforeShellExecution (tool Bash, { command }), beforeReadFile (Read, { file_path }), beforeMCPExecution",
    "(mcp__cursor__<tool>, its arguments) and preToolUse (Cursor's tool name and input). Prints",
    '{"permission": "deny" | "ask", "user_message": …, "agent_message": …} for a call it blocks or asks about',
    "(beforeReadFile answers permission alone and cannot ask: it denies). A call the policy lets through unchanged",
    'gets no output, so Cursor\'s own permission flow applies; --allow prints {"permission": "allow"} instead. A',
    "rewrite goes back as updated_input on preToolUse (ask, or allow with --allow); the other events cannot take new",
    "arguments, so a rewritten call is denied, saying so. Fails closed: a policy that does not load, unreadable input,",
    "a crash or a timeout exits 2 with the reason on stderr, which blocks the call. Other events exit 0 with no output.",
    'Configure it in .cursor/hooks.json: {"version": 1, "hooks": {"beforeShellExecution": [{"command":',
    '"npx toolware hook cursor --policy .cursor/toolware.policy.yaml"}], …} (see docs/coding-agents.md).',
  ].join("\n"),
  args: [],
  options: { ...HOOK_OPTIONS, allow: allowOption("Cursor", "permission flow") },
  failure: "never: every failure exits 2, which blocks the call (Cursor's code for a deny)",
  run: ({ options }, io) => runHook(options, io, "cursor"),
});
