import type { CommandGroup } from "../kit.js";
import { claudeCode } from "./claude-code.js";
import { cursor } from "./cursor.js";
import { gemini } from "./gemini.js";

/** `toolware hook claude-code|gemini|cursor`: a policy file as the command hook of a coding agent. */
export const hook: CommandGroup = {
  name: "hook",
  summary: "guard a coding agent's tool calls by a policy file, as its command hook",
  description: [
    "Command hooks for coding agents: the agent runs `toolware hook <agent> --policy FILE` before each tool call,",
    "and the policy file decides it. Supported: claude-code (Claude Code's PreToolUse hook), gemini (Gemini CLI's BeforeTool hook) and cursor",
    "(Cursor's beforeShellExecution, beforeMCPExecution, beforeReadFile and preToolUse hooks). See docs/coding-agents.md.",
  ].join("\n"),
  commands: [claudeCode, gemini, cursor],
};
