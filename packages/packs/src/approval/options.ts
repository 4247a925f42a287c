import type { ApprovalBinding, ToolCallHookContext } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import {
  checkBoolean,
  checkFunction,
  checkKeys,
  checkOptionsObject,
  checkPriority,
  MAX_TIMER_MS,
} from "../internal/options.js";
import type { ToolSelector } from "../internal/tool-selector.js";
import { type AnswerWords, type ApprovalAnswer, displayJson, printable } from "./answer.js";
import type { ApprovalStore } from "./store.js";

/** How a call's approval was settled. */
export type ApprovalSource =
  | "human"
  | "external"
  | "deferred"
  | "remembered"
  | "timeout"
  | "cancelled"
  | "unavailable"
  | "invalid-answer";

/**
 * An answer given outside the chain (an agent framework's own approval flow): an
 * {@link ApprovalAnswer}, `"defer"` to hand the call to that flow (the call is blocked now and
 * asked there), or undefined to ask through `ctx.requestHumanInput` as usual.
 */
export type ExternalApproval = ApprovalAnswer | "defer" | undefined;

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
  /**
   * The call this decision answers: tool, call id and the digest of the arguments as decided (an
   * edit's, when the person edited them). Undefined when the arguments cannot be digested.
   */
  readonly binding: ApprovalBinding | undefined;
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
  /**
   * Where remembered decisions live (only with `remember`). Default: a fresh in-memory store.
   * Share one (e.g. `redisApprovalStore` from `@toolware/redis`) so "always" holds in every process.
   */
  store?: ApprovalStore;
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
  /**
   * Asked before the human: an answer that a framework's approval flow already holds, such as
   * `aiSdkApproval` from @toolware/ai-sdk. A throw or a malformed answer denies.
   */
  external?: (ctx: ToolCallHookContext) => ExternalApproval | Promise<ExternalApproval>;
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
const OPTION_KEYS = [
  "tools",
  "approveWords",
  "remember",
  "store",
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
  "external",
  "maxInputChars",
  "priority",
];

const invalid = (message: string) => packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: ${message}`);

function words(value: unknown, name: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid(`\`${name}\` must be a non-empty array of words, got ${shown(value)}`);
  }
  return value.map((w) => {
    // An empty word would turn a bare Enter (or a failed read) into that answer.
    if (typeof w !== "string" || w.trim() === "") {
      throw invalid(`\`${name}\` may only hold non-empty strings, got ${shown(w)}`);
    }
    return w.trim().toLowerCase();
  });
}

/** Validates the options eagerly; throws a TypeError naming the first problem. */
export function checkOptions(options: ApprovalOptions): void {
  checkOptionsObject(options, `${PREFIX}: approval() takes an options object`);
  checkKeys(options, OPTION_KEYS, PREFIX, { aliases: { timeout: "timeoutMs", onApproval: "onDecision" } });
  const o = options;
  if (o.remember !== undefined && !["none", "tool", "tool+input"].includes(o.remember)) {
    throw invalid(`\`remember\` must be "none", "tool" or "tool+input", got ${shown(o.remember)}`);
  }
  const approve = words(o.approveWords, "approveWords");
  const always = words(o.alwaysWords, "alwaysWords");
  const never = words(o.neverWords, "neverWords");
  if ((always.length > 0 || never.length > 0) && (o.remember ?? "none") === "none") {
    throw invalid(`\`alwaysWords\` and \`neverWords\` need \`remember\` ("tool" or "tool+input")`);
  }
  const all = [...(approve.length ? approve : ["yes", "y"]), ...always, ...never];
  const twice = all.find((w, i) => all.indexOf(w) !== i);
  if (twice !== undefined) throw invalid(`a word is listed twice among the answers: ${JSON.stringify(twice)}`);
  checkBoolean(o.edits, "edits", PREFIX);
  if (o.editPrefix !== undefined && (typeof o.editPrefix !== "string" || !/^\S+$/.test(o.editPrefix.trim()))) {
    throw invalid(`\`editPrefix\` must be one non-empty word, got ${shown(o.editPrefix)}`);
  }
  if (o.editMode !== undefined && o.editMode !== "merge" && o.editMode !== "replace") {
    throw invalid(`\`editMode\` must be "merge" or "replace", got ${shown(o.editMode)}`);
  }
  if (
    o.timeoutMs !== undefined &&
    !(typeof o.timeoutMs === "number" && o.timeoutMs > 0 && (o.timeoutMs <= MAX_TIMER_MS || o.timeoutMs === Infinity))
  ) {
    throw invalid(
      `\`timeoutMs\` must be a positive number of milliseconds, at most 2147483647 (about 24.8 days, the longest a JavaScript timer waits), or Infinity for no time limit, got ${shown(o.timeoutMs)}`,
    );
  }
  if (o.maxInputChars !== undefined && !(Number.isInteger(o.maxInputChars) && o.maxInputChars >= 16)) {
    throw invalid(`\`maxInputChars\` must be an integer of at least 16, got ${shown(o.maxInputChars)}`);
  }
  if (o.defaultMessage !== undefined && typeof o.defaultMessage !== "string") {
    throw invalid(`\`defaultMessage\` must be a string, got ${shown(o.defaultMessage)}`);
  }
  checkPriority(o.priority, PREFIX);
  for (const name of ["parseAnswer", "prompt", "message", "onDecision", "external"] as const)
    checkFunction(o[name], name, PREFIX);
  if (o.store !== undefined) {
    const methods = ["get", "set", "clear", "count"] as const;
    const store = o.store as unknown as Partial<Record<string, unknown>> | null;
    if (store === null || typeof store !== "object" || methods.some((m) => typeof store[m] !== "function")) {
      throw packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: \`store\` must implement ${methods.join(", ")}`);
    }
    if (o.remember === undefined || o.remember === "none") {
      throw packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: \`store\` only applies with \`remember\``);
    }
  }
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
    case "deferred":
      return `${tool} waits for the user's approval`;
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
