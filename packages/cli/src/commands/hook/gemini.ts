import { defineCommand } from "../kit.js";
import { allowOption, HOOK_OPTIONS, runHook } from "./claude-code.js";

/** `toolware hook gemini --policy FILE`: a Gemini CLI BeforeTool command hook deciding every tool call by a policy file. */
export const gemini = defineCommand({
  name: "gemini",
  summary: "decide Gemini CLI's tool calls by a policy file (a BeforeTool command hook)",
  description: [
    "A Gemini CLI command hook: reads the BeforeTool input (JSON) on stdin and decides the tool call by the policy",
    'file and exits 0. Prints {"decision": "deny", "reason": …} for a call it blocks. A call the policy lets through',
    "gets no decision, so Gemini CLI's own confirmation still applies: no output, or only",
    '{"hookSpecificOutput": {"tool_input": …}} when the policy rewrote the arguments. --allow prints',
    '{"decision": "allow"} (with the tool_input) instead. Gemini CLI hooks cannot ask a person: a `decide: approve` rule',
    "denies, saying so. Fails closed: a policy that does not load, unreadable input, a crash or a timeout exits 2",
    "with the reason on stderr, which blocks the call. Events other than BeforeTool exit 0 with no output.",
  ].join("\n"),
  args: [],
  options: { ...HOOK_OPTIONS, allow: allowOption("Gemini CLI", "confirmation") },
  failure: "never: every failure exits 2, which blocks the call (Gemini CLI's code for a blocking error)",
  run: ({ options }, io) => runHook(options, io, "gemini"),
});
