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
  "adviseDeveloper",
  "announceRefused",
  "afterToolCall",
  "afterToolCallCrew",
  "beforeToolCall",
  "beforeToolCallCrew",
  "bindCall",
  "claimGuard",
  "clearAfterToolCallHooks",
  "closestKey",
  "clearAllToolCallHooks",
  "clearBeforeToolCallHooks",
  "defaultToolHooks",
  "definePack",
  "defineTool",
  "failedOutcome",
  "formatToolResult",
  "getAfterToolCallHooks",
  "getBeforeToolCallHooks",
  "guardOf",
  "inputSchemaOf",
  "isPack",
  "linkAbort",
  "messageOf",
  "normalizeName",
  "notifyOutcome",
  "readArguments",
  "refusedOutcome",
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
  "traceAs",
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

describe("closestKey", () => {
  it("guesses a misspelt key, another case style, and nothing for a stranger", () => {
    expect(core.closestKey("defualt", ["default", "rules"])).toBe("default");
    expect(core.closestKey("expected_output", ["expectedOutput"])).toBe("expectedOutput");
    expect(core.closestKey("colour", ["tools", "rules"])).toBeUndefined();
    expect(core.closestKey("tol", ["tool"])).toBe("tool");
  });
});
