// The public surface: index.ts names every export, and the internal helpers (the call-state funnel,
// the runners, the chain cache) stay out of it, at run time as in the types.
import { describe, expect, it } from "vitest";
import * as core from "./index.js";

// Every runtime value the package exports, each documented in docs/ and in the API reference.
const RUNTIME_EXPORTS = [
  "Agent",
  "ApprovalLedger",
  "approvalAnswers",
  "bindApproval",
  "bindingKey",
  "digestArguments",
  "sameBinding",
  "Crew",
  "HookFailedError",
  "HookRegistry",
  "HookTimeoutError",
  "HumanInputTimeoutError",
  "HumanInputUnavailableError",
  "InputRejectedError",
  "Task",
  "ToolCallHookContext",
  "ToolHooks",
  "ToolwareError",
  "ToolwareTypeError",
  "UNREADABLE_VALUE",
  "afterToolCall",
  "afterToolCallCrew",
  "beforeToolCall",
  "beforeToolCallCrew",
  "bindCall",
  "clearAfterToolCallHooks",
  "clearAllToolCallHooks",
  "clearBeforeToolCallHooks",
  "defaultToolHooks",
  "definePack",
  "defineTool",
  "failedOutcome",
  "formatToolResult",
  "getAfterToolCallHooks",
  "getBeforeToolCallHooks",
  "inputSchemaOf",
  "isPack",
  "messageOf",
  "normalizeName",
  "notifyOutcome",
  "registerAfterToolCallHook",
  "registerBeforeToolCallHook",
  "scriptedHumanInput",
  "terminalHumanInput",
  "toolwareCode",
  "unregisterAfterToolCallHook",
  "unregisterBeforeToolCallHook",
  "withHumanInputTimeout",
];

// What a hook can call or read on its context: the settling rules sit behind block() and respond().
const CONTEXT_API = [
  "block",
  "blockReason",
  "linkSignal",
  "reportError",
  "requestHumanInput",
  "respond",
  "signal",
  "state",
  "status",
  "toolInput",
  "toolRan",
  "trace",
  "wrapExecution",
];

describe("the package index", () => {
  it("exports exactly the public runtime names", () => {
    expect(Object.keys(core).sort()).toEqual([...RUNTIME_EXPORTS].sort());
  });

  it("exports none of the internal helpers that settle a call", () => {
    for (const name of ["blockCall", "respondCall", "toolReturned", "toolThrew", "failBeforeTool", "finishCall"]) {
      expect(core).not.toHaveProperty(name);
    }
  });

  it("gives the context no public method beyond its documented API", () => {
    const names = Object.getOwnPropertyNames(core.ToolCallHookContext.prototype).filter(
      (name) => name !== "constructor" && !name.startsWith("_"),
    );
    expect(names.sort()).toEqual(CONTEXT_API);
  });
});
