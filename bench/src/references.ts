import type { ToolCallOutcome } from "@toolware/core";
import { EXPECTED, input, TOOL_NAME, trivialTool } from "./fixtures.js";
import { expectString, type Subject } from "./harness.js";

// The reference rows several suites measure beside their subjects: one definition, so every
// suite's ratios are against the same code.

/** The direct call every overhead is measured against. */
export const direct: Subject = {
  id: "direct",
  label: "direct `await tool(input)`",
  hooks: 0,
  run: () => trivialTool(input),
  check: expectString(EXPECTED),
};

const NO_TRACE: readonly [] = Object.freeze([]) as readonly [];

// The least a wrapper returning toolware's outcome can do after an async tool: one reaction that builds it.
function buildOutcome(value: string): ToolCallOutcome<string> {
  return {
    status: "ok",
    result: value,
    raw: value,
    reason: undefined,
    error: undefined,
    trace: NO_TRACE,
    callId: "c",
    toolName: TOOL_NAME,
  };
}

/** Any wrapper's floor: `tool(input).then(buildOutcome)`, the 0-hook target's reference. */
export const floorOutcome: Subject = {
  id: "floor-outcome",
  label: "any wrapper's floor: `tool(input).then(buildOutcome)` (an 8-field outcome)",
  hooks: 0,
  run: () => trivialTool(input).then(buildOutcome),
  check: (v) => expectString(EXPECTED)((v as ToolCallOutcome<string>).result),
};
