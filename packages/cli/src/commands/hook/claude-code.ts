import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { claudeApprovals, toolwareHooks } from "@toolware/claude";
import { messageOf, type ToolCallOutcome, ToolHooks } from "@toolware/core";
import { formatIssue, loadPolicy, PolicyLoadError } from "@toolware/policy";
import { type CommandIO, defineCommand, usageError, wholeNumber } from "../kit.js";
import { cursorInput, cursorOutput, type PreOutput } from "./cursor-protocol.js";
import { readAll } from "./stdin.js";

/** Claude Code's exit code that blocks the tool call and shows stderr to Claude. */
const BLOCK = 2;

// Every way the hook can fail ends here: exit 2 blocks the call (any other non-zero code would let it run).
function denied(io: CommandIO, why: string): number {
  io.err(`toolware: the call was denied because ${why}\n`);
  return BLOCK;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} s (--timeout)`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The coding agents whose hook protocol the command speaks. */
export type Dialect = "claude-code" | "gemini" | "cursor";

// Gemini CLI's BeforeTool answer: `decision` and `reason`, and `hookSpecificOutput.tool_input` for a rewrite. It has
// no "ask": a call that needs a person is denied, saying so. A call the policy lets through carries no decision unless
// `--allow` was given, so Gemini CLI's own confirmation still applies (a rewrite still merges its arguments).
function geminiOutput(output: PreOutput, allow: boolean): object | undefined {
  const d = output.hookSpecificOutput;
  if (d?.permissionDecision === "allow") {
    const rewrite = d.updatedInput === undefined ? {} : { hookSpecificOutput: { tool_input: d.updatedInput } };
    if (allow) return { decision: "allow", ...rewrite };
    return d.updatedInput === undefined ? undefined : rewrite;
  }
  const reason = d?.permissionDecisionReason ?? "toolware denied the call";
  if (d?.permissionDecision === "ask") {
    return { decision: "deny", reason: `${reason} (Gemini CLI hooks cannot ask a person, so the call was denied)` };
  }
  return { decision: "deny", reason };
}

// Claude Code's PreToolUse answer. An `allow` there skips the user's permission prompt, so a guard that only adds
// restrictions gives no decision for a call it lets through unchanged (Claude Code's own permission flow decides),
// and asks the user about a rewritten one (its `updatedInput` shows in the prompt); `--allow` restores `allow`.
function claudeOutput(output: PreOutput, allow: boolean): PreOutput | undefined {
  const d = output.hookSpecificOutput;
  if (d?.permissionDecision !== "allow" || allow) return output;
  if (d.updatedInput === undefined) return undefined;
  return {
    hookSpecificOutput: {
      ...d,
      permissionDecision: "ask",
      permissionDecisionReason: "toolware rewrote the arguments of this call: check the new ones",
    },
  };
}

async function decide(
  io: CommandIO,
  policyFile: string,
  projectDir: string | undefined,
  text: string,
  dialect: Dialect,
  allow: boolean,
): Promise<number> {
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    return denied(io, `the hook input on stdin is not JSON (${messageOf(error)})`);
  }
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return denied(io, "the hook input on stdin is not a JSON object");
  }
  const event = input.hook_event_name;
  if (dialect === "cursor") {
    const call = cursorInput(input);
    if (call === undefined) return 0;
    input = call;
  }
  // Only the event before a tool decides; other events (PostToolUse, …) have nothing to check in a one-shot process.
  else if (event !== (dialect === "gemini" ? "BeforeTool" : "PreToolUse")) return 0;
  if (dialect === "gemini") {
    // Gemini CLI gives no call id: each hook run is one call, with an id of its own.
    const id =
      typeof input.tool_use_id === "string" && input.tool_use_id !== "" ? input.tool_use_id : `gemini_${randomUUID()}`;
    input = { ...input, hook_event_name: "PreToolUse", tool_use_id: id };
  }
  let pack: Awaited<ReturnType<typeof loadPolicy>>;
  try {
    pack = await loadPolicy(resolve(io.cwd, policyFile), { humanInput: claudeApprovals() });
  } catch (error) {
    const why =
      error instanceof PolicyLoadError ? error.issues.map((issue) => formatIssue(issue)).join("; ") : messageOf(error);
    return denied(io, `the policy ${policyFile} did not load: ${why}`);
  }
  const hooks = new ToolHooks({ humanInput: claudeApprovals(), onListenerError: () => {} });
  hooks.use(pack);
  let ended: (outcome: ToolCallOutcome) => void = () => {};
  const outcome = new Promise<ToolCallOutcome>((r) => {
    ended = r;
  });
  const cwd = typeof input.cwd === "string" && input.cwd !== "" ? input.cwd : undefined;
  const dir = projectDir ?? process.env.CLAUDE_PROJECT_DIR ?? cwd;
  const guard = toolwareHooks(hooks, {
    results: "none",
    onOutcome: (o) => ended(o),
    ...(dir === undefined || dir === "" ? {} : { projectDir: resolve(io.cwd, dir) }),
  });
  const hook = guard.hooks.PreToolUse[0]?.hooks[0];
  if (hook === undefined) return denied(io, "the adapter gave no PreToolUse hook");
  const toolUseId = typeof input.tool_use_id === "string" ? input.tool_use_id : undefined;
  const output = (await hook(input as never, toolUseId, { signal: AbortSignal.timeout(2_147_483_647) })) as PreOutput;
  // A call the policy let through ends its chain at once (audit lines are written then), whether the answer allows it
  // or defers to the agent's own permission flow; an asked one waits for Claude Code.
  if (output.hookSpecificOutput?.permissionDecision === "allow") await outcome;
  const answer =
    dialect === "gemini"
      ? geminiOutput(output, allow)
      : dialect === "cursor"
        ? cursorOutput(String(event), output, allow)
        : claudeOutput(output, allow);
  // No stdout with exit 0 is the documented "no decision": the agent's permission flow goes on as without the hook.
  if (answer !== undefined) io.out(`${JSON.stringify(answer)}\n`);
  return 0;
}

/** The options every hook command takes. */
export const HOOK_OPTIONS = {
  policy: { type: "string", value: "FILE", description: "the policy file (YAML or JSON) that decides every call" },
  project: {
    type: "string",
    value: "DIR",
    description:
      "the project folder edits must stay in (tag outside-project); default $CLAUDE_PROJECT_DIR, else the input's cwd",
  },
  timeout: {
    type: "string",
    value: "SECONDS",
    description:
      "deny when no decision is made within this many seconds (default 20; keep it below the hook's timeout)",
  },
} as const;

/** `--allow`, in the words of one agent: the opt-in that gives up the agent's own prompt for calls the policy passes. */
export function allowOption(agent: string, prompt: string) {
  return {
    type: "boolean",
    description: `calls the policy lets through skip ${agent}'s ${prompt} (answer allow); without it they get no decision and ${agent}'s own permission flow applies`,
  } as const;
}

/** Reads the hook input, decides it, and fails closed with exit 2 on any failure. */
export async function runHook(
  options: {
    policy?: string | undefined;
    project?: string | undefined;
    timeout?: string | undefined;
    allow?: boolean | undefined;
  },
  io: CommandIO,
  dialect: Dialect,
): Promise<number> {
  if (options.policy === undefined || options.policy === "") throw usageError(`hook ${dialect} needs --policy FILE`);
  const seconds = options.timeout === undefined ? 20 : wholeNumber("timeout", options.timeout);
  if (seconds < 1) throw usageError("--timeout takes a whole number of seconds, at least 1");
  try {
    const text = await withTimeout(readAll(process.stdin), seconds * 1000, "reading the hook input");
    return await withTimeout(
      decide(io, options.policy, options.project, text, dialect, options.allow === true),
      seconds * 1000,
      "deciding the call",
    );
  } catch (error) {
    // Whatever still waits (stdin left open, a hanging store) must not keep the process past the decision:
    // the agent would kill it at its own timeout and take that as a non-blocking error, running the tool.
    process.stdin.destroy();
    setTimeout(() => process.exit(BLOCK), 1000).unref();
    return denied(io, messageOf(error));
  }
}

/** `toolware hook claude-code --policy FILE`: a Claude Code command hook deciding every tool call by a policy file. */
export const claudeCode = defineCommand({
  name: "claude-code",
  summary: "decide Claude Code's tool calls by a policy file (a PreToolUse command hook)",
  description: [
    "A Claude Code command hook: reads the hook input (JSON) on stdin and decides the tool call by the policy file.",
    "Exits 0 and prints: deny with the reason Claude reads, or ask (a `decide: approve` rule: Claude Code asks the",
    "user). A call the policy lets through unchanged gets no output, so Claude Code's own permission flow decides it",
    "(a hook's allow would skip the user's prompt); a rewritten one gets ask with updatedInput (the user sees the new",
    "arguments). --allow answers allow (with updatedInput) instead: calls the policy lets through skip the prompt.",
    "Fails closed: a policy that does not load, unreadable input, a crash or a timeout exits 2 with the reason on",
    "stderr, which blocks the call. Events other than PreToolUse exit 0 with no output.",
    'Configure it in .claude/settings.json: {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type":',
    '"command", "command": "npx toolware hook claude-code --policy .claude/toolware.policy.yaml", "timeout": 30}]}]}}',
  ].join("\n"),
  args: [],
  options: { ...HOOK_OPTIONS, allow: allowOption("Claude Code", "permission prompt") },
  failure: "never: every failure exits 2, which blocks the call (Claude Code's code for a blocking error)",
  run: ({ options }, io) => runHook(options, io, "claude-code"),
});
