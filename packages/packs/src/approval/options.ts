import type { ToolCallHookContext } from "@toolware/core";
import type { ToolSelector } from "../internal/tool-match.js";
import { type AnswerWords, type ApprovalAnswer, displayJson, printable } from "./answer.js";

/** How a call's approval was settled. */
export type ApprovalSource = "human" | "remembered" | "timeout" | "cancelled" | "unavailable" | "invalid-answer";

/** One approval decision: what `onDecision`, `message` and `ctx.state.approval` see. */
export interface ApprovalDecision {
  readonly toolName: string;
  readonly callId: string;
  readonly approved: boolean;
  readonly source: ApprovalSource;
  /** The human's answer, when there was one. */
  readonly answer: string | undefined;
  /** True when the human changed the arguments. */
  readonly edited: boolean;
  /** True when this decision was stored for the rest of the run. */
  readonly remembered: boolean;
  /** Details for a denial (why an edit was refused, the provider's error, …). */
  readonly detail: string | undefined;
}

/** What a custom `prompt` receives. */
export interface ApprovalPromptInfo {
  readonly ctx: ToolCallHookContext;
  readonly toolName: string;
  readonly role: string | undefined;
  readonly input: Readonly<Record<string, unknown>>;
  readonly maxInputChars: number;
}

/** Options of {@link approval}. */
export interface ApprovalOptions {
  /** Tools that need approval (names, globs, RegExps, `{ tag }`, tool objects or a predicate). Default: every call. */
  tools?: ToolSelector;
  /** Answers that approve, compared trimmed and case-insensitively. Default `["yes", "y"]`. */
  approveWords?: readonly string[];
  /** Keep decisions for the rest of the run, per tool or per tool and exact input. Default `"none"`. */
  remember?: "none" | "tool" | "tool+input";
  /** Answers that approve and remember (only with `remember`). Default `["always"]`. */
  alwaysWords?: readonly string[];
  /** Answers that deny and remember (only with `remember`). Default `["never"]`. */
  neverWords?: readonly string[];
  /** Let the human answer `edit {json}` to approve with changed arguments. Default true. */
  edits?: boolean;
  /** The word that starts an edit. Default `"edit"`. */
  editPrefix?: string;
  /** `"merge"` changes only the keys given; `"replace"` makes the input exactly the edit. Default `"merge"`. */
  editMode?: "merge" | "replace";
  /** Reads answers your own way (replaces the words above); a throw or a malformed result denies. */
  parseAnswer?: (answer: string, ctx: ToolCallHookContext) => ApprovalAnswer | Promise<ApprovalAnswer>;
  /** Deny when nobody answers within this many ms. Default 300 000 (5 min); `Infinity` waits forever. */
  timeoutMs?: number;
  /** Builds the question. Default: `Approve <tool>?` with the agent's role and the input as JSON. */
  prompt?: (info: ApprovalPromptInfo) => string;
  /** Shown under the question. Default: which answers do what. */
  defaultMessage?: string;
  /** The reason the agent reads when denied. */
  message?: (decision: ApprovalDecision) => string;
  /** Sees every decision (audit log); a throw here is reported and ignored. */
  onDecision?: (decision: ApprovalDecision) => void;
  /** The input shown in the prompt is cut after this many characters, with a note. Default 4000. */
  maxInputChars?: number;
  /** Chain position. Default 0. */
  priority?: number;
}

const PREFIX = "toolware/approval";
const OPTION_KEYS = new Set([
  "tools",
  "approveWords",
  "remember",
  "alwaysWords",
  "neverWords",
  "edits",
  "editPrefix",
  "editMode",
  "parseAnswer",
  "timeoutMs",
  "prompt",
  "defaultMessage",
  "message",
  "onDecision",
  "maxInputChars",
  "priority",
]);

function words(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length === 0) {
    throw new TypeError(`${PREFIX}: \`${name}\` must be a non-empty array of words`);
  }
  return value.map((w) => {
    // An empty word would turn a bare Enter (or a failed read) into that answer.
    if (typeof w !== "string" || w.trim() === "")
      throw new TypeError(`${PREFIX}: \`${name}\` may only hold non-empty strings`);
    return w.trim().toLowerCase();
  });
}

function fn(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== "function")
    throw new TypeError(`${PREFIX}: \`${name}\` must be a function`);
}

/** Validates the options eagerly; throws a TypeError naming the first problem. */
export function checkOptions(options: ApprovalOptions): void {
  if (options === null || typeof options !== "object")
    throw new TypeError(`${PREFIX}: approval() takes an options object`);
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) throw new TypeError(`${PREFIX}: unknown option \`${key}\``);
  }
  const o = options;
  if (o.remember !== undefined && !["none", "tool", "tool+input"].includes(o.remember)) {
    throw new TypeError(`${PREFIX}: \`remember\` must be "none", "tool" or "tool+input"`);
  }
  const approve = words(o.approveWords, "approveWords");
  const always = words(o.alwaysWords, "alwaysWords");
  const never = words(o.neverWords, "neverWords");
  if ((always.length > 0 || never.length > 0) && (o.remember ?? "none") === "none") {
    throw new TypeError(`${PREFIX}: \`alwaysWords\` and \`neverWords\` need \`remember\` ("tool" or "tool+input")`);
  }
  const all = [...(approve.length ? approve : ["yes", "y"]), ...always, ...never];
  if (new Set(all).size !== all.length) throw new TypeError(`${PREFIX}: a word is listed twice among the answers`);
  if (o.edits !== undefined && typeof o.edits !== "boolean")
    throw new TypeError(`${PREFIX}: \`edits\` must be a boolean`);
  if (o.editPrefix !== undefined && (typeof o.editPrefix !== "string" || !/^\S+$/.test(o.editPrefix.trim()))) {
    throw new TypeError(`${PREFIX}: \`editPrefix\` must be one non-empty word`);
  }
  if (o.editMode !== undefined && o.editMode !== "merge" && o.editMode !== "replace") {
    throw new TypeError(`${PREFIX}: \`editMode\` must be "merge" or "replace"`);
  }
  if (o.timeoutMs !== undefined && !(typeof o.timeoutMs === "number" && o.timeoutMs > 0)) {
    throw new TypeError(`${PREFIX}: \`timeoutMs\` must be a positive number of milliseconds (or Infinity)`);
  }
  if (o.maxInputChars !== undefined && !(Number.isInteger(o.maxInputChars) && o.maxInputChars >= 16)) {
    throw new TypeError(`${PREFIX}: \`maxInputChars\` must be an integer of at least 16`);
  }
  if (o.defaultMessage !== undefined && typeof o.defaultMessage !== "string") {
    throw new TypeError(`${PREFIX}: \`defaultMessage\` must be a string`);
  }
  if (o.priority !== undefined && !Number.isFinite(o.priority)) {
    throw new TypeError(`${PREFIX}: \`priority\` must be a finite number`);
  }
  fn(o.parseAnswer, "parseAnswer");
  fn(o.prompt, "prompt");
  fn(o.message, "message");
  fn(o.onDecision, "onDecision");
}

/** `Approve send_email for agent assistant?` plus the input, with spoofing characters escaped. */
export function defaultPrompt(info: ApprovalPromptInfo): string {
  const who = info.role === undefined ? "" : ` for agent ${printable(info.role)}`;
  return `Approve ${printable(info.toolName)}${who}?\nInput: ${displayJson(info.input, info.maxInputChars)}`;
}

/** Tells the human which answers do what. */
export function defaultMessageFor(w: AnswerWords, remember: string): string {
  const quote = (set: ReadonlySet<string>) => [...set].map((x) => `'${x}'`).join(" or ");
  let text = `Type ${quote(w.approve)} to approve; anything else denies.`;
  if (w.editPrefix !== undefined) text += ` '${w.editPrefix} {"key": "value"}' approves with changed arguments.`;
  if (remember !== "none") text += ` ${quote(w.always)} / ${quote(w.never)} decide for the rest of this run.`;
  return text;
}

// Provider errors can quote the whole prompt: keep the reason on one short line.
function oneLine(text: string | undefined): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** The reason the agent reads when a call was not approved. */
export function defaultReason(d: ApprovalDecision, timeoutMs: number): string {
  const tool = d.toolName;
  switch (d.source) {
    case "remembered":
      return `a human denied ${tool} earlier in this run`;
    case "timeout":
      return `no approval for ${tool} within ${timeoutMs} ms`;
    case "cancelled":
      return `the call to ${tool} was cancelled while waiting for approval`;
    case "unavailable":
      return `approval for ${tool} could not be requested: ${oneLine(d.detail)}`;
    case "invalid-answer":
      return `the approval answer for ${tool} could not be read: ${oneLine(d.detail)}`;
    default: {
      if (d.detail !== undefined) return `${tool} was not approved: ${oneLine(d.detail)}`;
      const answer = (d.answer ?? "").trim();
      if (answer === "") return `a human did not approve ${tool}`;
      const shown = answer.length > 200 ? `${answer.slice(0, 200)}…` : answer;
      return `a human did not approve ${tool} (answer: ${JSON.stringify(shown)})`;
    }
  }
}
