// snippet: context-7.ts
import {
  type HumanInputProvider,
  scriptedHumanInput,
  ToolHooks,
  terminalHumanInput,
  withHumanInputTimeout,
} from "@toolware/core";

// The terminal (the default): prints the prompt and the default message, reads one line, trims it.
// Without a TTY on stdin it fails with HumanInputUnavailableError, which blocks fail-closed hooks.
const onTerminal = new ToolHooks({ humanInput: terminalHumanInput({ timeoutMs: 120_000 }) });

// Scripted: a list (one answer per question, in order), one answer for every question, or a function.
const approveReads = scriptedHumanInput((request) => (request.toolName.startsWith("read_") ? "yes" : "no"));
const inTests = new ToolHooks({ humanInput: approveReads });

// Your own: any function of the request. Bound it, so a human who never answers cannot hang the agent.
const approvals = new Map<string, string>(); // filled elsewhere, e.g. by a chat bot
const fromChat: HumanInputProvider = async ({ prompt, defaultMessage, toolName, callId, signal }) => {
  console.log(`[approval ${callId}] ${prompt} ${defaultMessage ?? ""} (${toolName})`);
  while (!approvals.has(callId)) {
    if (signal.aborted) throw new Error("the call was cancelled");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return approvals.get(callId) ?? "";
};
const inProduction = new ToolHooks({ humanInput: withHumanInputTimeout(fromChat, 10 * 60_000) });

// The provider can also be swapped later (the setter checks that it is a function).
inProduction.humanInput = scriptedHumanInput("no");

export { inProduction, inTests, onTerminal };
