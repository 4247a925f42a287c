// snippet: registration-1.ts
import { scriptedHumanInput, ToolHooks } from "@toolware/core";

// Every option is optional; an unknown option is a TypeError.
const hooks = new ToolHooks({
  // What a failing hook does unless it says otherwise: "block" (default), "continue" or "throw".
  onHookError: "block",
  // Record each hook's duration in outcome.trace (durationMs). Default false.
  timing: true,
  // Where ctx.requestHumanInput() asks. Default: terminalHumanInput().
  humanInput: scriptedHumanInput(["yes"]),
  // The agent-facing texts. Defaults: "Tool execution blocked by hook. Tool: <name>[. Reason: <reason>]",
  // "Tool result withheld by hook. Tool: <name>. Reason: <reason>", "Tool execution failed. Tool: <name>. Error: <message>".
  messages: {
    blocked: (tool, reason) => `⛔ ${tool} is not allowed${reason ? `: ${reason}` : ""}`,
    withheld: (tool, reason) => `⛔ the result of ${tool} was withheld: ${reason}`,
    failed: (tool, error) => `${tool} failed: ${error instanceof Error ? error.message : String(error)}`,
  },
  // Where a throwing event listener is reported. Default: console.error.
  onListenerError: (event, error) => console.warn(`a listener of ${event} failed`, error),
});

export { hooks };
