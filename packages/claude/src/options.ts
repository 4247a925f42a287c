import type { CanUseTool, PreToolUseHookInput } from "@anthropic-ai/claude-agent-sdk";
import { type BindFunction, closestKey, type OutcomeListener, ToolwareTypeError } from "@toolware/core";

/** Options of {@link toolwareHooks}. Checked strictly: an unknown key is refused with a "did you mean" hint. */
export interface ToolwareHooksOptions {
  /** Picks the toolware agent, task and crew of each call from Claude Code's hook input. */
  bind?: BindFunction<PreToolUseHookInput>;
  /** Hears the outcome of every call (when its result came back, or when it was refused). */
  onOutcome?: OutcomeListener<PreToolUseHookInput>;
  /**
   * The project's folder: a `Write`, `Edit`, `MultiEdit` or `NotebookEdit` call whose path resolves outside it
   * gets the tag `outside-project` (match it in a policy, `match: { tags: [outside-project] }`). Default: the
   * hook input's `cwd`.
   */
  projectDir?: string;
  /** How long Claude Code waits for one hook answer, in seconds (the matcher's `timeout`). Default 600. */
  timeoutSeconds?: number;
  /**
   * How long a call allowed to run waits for Claude Code to report its result (`PostToolUse`) before its chain
   * ends with an error, in milliseconds. Default 600 000.
   */
  resultTimeoutMs?: number;
  /**
   * `"await"` (default): the chain's after-hooks see the tool's result from `PostToolUse`. `"none"`: the chain
   * ends as soon as the call is allowed (a one-shot process such as `toolware hook claude-code`).
   */
  results?: "await" | "none";
  /**
   * Your own permission prompt: asked by `canUseTool` when the approval pack asks through
   * {@link claudeApprovals}, and for calls Claude Code asks about because of its own `ask` rules.
   * Without it those are denied.
   */
  canUseTool?: CanUseTool;
}

const KEYS = ["bind", "onOutcome", "projectDir", "timeoutSeconds", "resultTimeoutMs", "results", "canUseTool"];

function invalid(message: string): ToolwareTypeError {
  return new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `toolwareHooks(): ${message}`);
}

/** Checks the options at the call boundary and returns them with defaults. @internal */
export function readOptions(
  options: unknown,
): Required<Pick<ToolwareHooksOptions, "timeoutSeconds" | "resultTimeoutMs" | "results">> & ToolwareHooksOptions {
  if (options === undefined) return { timeoutSeconds: 600, resultTimeoutMs: 600_000, results: "await" };
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw invalid("options must be an object");
  }
  const o = options as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!KEYS.includes(key)) {
      const near = closestKey(key, KEYS);
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `toolwareHooks(): unknown option \`${key}\`${near === undefined ? "" : ` (did you mean \`${near}\`?)`} (allowed: ${KEYS.join(", ")})`,
      );
    }
  }
  for (const name of ["bind", "onOutcome", "canUseTool"]) {
    if (o[name] !== undefined && typeof o[name] !== "function") throw invalid(`\`${name}\` must be a function`);
  }
  if (o.projectDir !== undefined && (typeof o.projectDir !== "string" || o.projectDir === "")) {
    throw invalid("`projectDir` must be a non-empty string (a folder)");
  }
  const timeoutSeconds = o.timeoutSeconds ?? 600;
  if (typeof timeoutSeconds !== "number" || !Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) {
    throw invalid(`\`timeoutSeconds\` must be a positive number of seconds, got ${String(timeoutSeconds)}`);
  }
  const resultTimeoutMs = o.resultTimeoutMs ?? 600_000;
  if (
    typeof resultTimeoutMs !== "number" ||
    !Number.isInteger(resultTimeoutMs) ||
    resultTimeoutMs <= 0 ||
    resultTimeoutMs > 2_147_483_647
  ) {
    throw invalid(`\`resultTimeoutMs\` must be a whole number of milliseconds from 1 to 2147483647`);
  }
  const results = o.results ?? "await";
  if (results !== "await" && results !== "none") throw invalid(`\`results\` must be "await" or "none"`);
  return { ...(o as ToolwareHooksOptions), timeoutSeconds, resultTimeoutMs, results };
}
