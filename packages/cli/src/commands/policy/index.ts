import type { CommandGroup } from "../kit.js";
import { check } from "./check.js";
import { explain } from "./explain.js";
import { test } from "./test-cases.js";

/** `toolware policy check|explain|test`: policy files checked, explained and tested before they guard anything. */
export const policy: CommandGroup = {
  name: "policy",
  summary: "check, explain and test policy files of @toolware/policy",
  description: [
    "Policy files (@toolware/policy) checked, explained and tested before they guard a single call: check lists every",
    "problem as FILE:LINE:COLUMN, explain shows how one call is decided and why, test runs a table of calls against",
    "the decisions they should get.",
  ].join("\n"),
  commands: [check, explain, test],
};
