import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  failedOutcome,
  formatToolResult,
  messageOf,
  type Tool,
  type ToolCallOutcome,
  ToolwareError,
} from "@toolware/core";

/** Whether a value has the shape of an MCP tool result (a `content` array). @internal */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return value !== null && typeof value === "object" && Array.isArray((value as { content?: unknown }).content);
}

/** Whether a value is a `CallToolResult` the SDK itself would accept (its own schema). @internal */
export function isValidCallToolResult(value: unknown): value is CallToolResult {
  try {
    return CallToolResultSchema.safeParse(value).success;
  } catch {
    return false;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The text hooks see for an MCP result: its text parts joined by newlines; other parts are named,
 * not inlined (`[image image/png]`); with no text part, the structured content as JSON.
 */
export function textOfResult(result: CallToolResult): string {
  const parts: string[] = [];
  for (const part of result.content) {
    if (part.type === "text") parts.push(part.text);
    else if (part.type === "image" || part.type === "audio") parts.push(`[${part.type} ${part.mimeType}]`);
    else if (part.type === "resource_link") parts.push(`[resource ${part.uri}]`);
    else if (part.type === "resource") {
      const r = part.resource;
      parts.push("text" in r && typeof r.text === "string" ? r.text : `[resource ${r.uri}]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join("\n");
}

function text(value: string, isError: boolean): CallToolResult {
  return isError
    ? { content: [{ type: "text", text: value }], isError: true }
    : { content: [{ type: "text", text: value }] };
}

// The tool's own text for its result; undefined when formatResult throws (nothing can be shown to be the tool's own).
function ownText(tool: Tool<never, unknown>, raw: unknown): string | undefined {
  try {
    return formatToolResult(tool, raw as never);
  } catch {
    return undefined;
  }
}

function parseObject(value: string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    return isPlainObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function structuredOf(raw: unknown): Record<string, unknown> | undefined {
  if (isCallToolResult(raw)) return isPlainObject(raw.structuredContent) ? raw.structuredContent : undefined;
  return isPlainObject(raw) ? raw : undefined;
}

// Every leaf of `value`, with string leaves equal to `from` replaced by `to`; undefined when some
// other leaf does not appear in `to` (the hooks removed or changed it, or never saw it).
function carried(value: unknown, from: string, to: string, depth = 0): unknown {
  if (typeof value === "string") return value === from ? to : to.includes(value) ? value : undefined;
  if (typeof value === "number" || typeof value === "boolean") return to.includes(String(value)) ? value : undefined;
  if (value === null) return null;
  if (depth > 64 || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const next = carried(item, from, to, depth + 1);
      if (next === undefined) return undefined;
      out.push(next);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const next = carried(item, from, to, depth + 1);
    if (next === undefined) return undefined;
    out[key] = next;
  }
  return out;
}

// Hooks change text; the structured copy follows them only where the change can be traced:
// - the text hooks saw was the structured object as JSON (the SDK's convention, a toolware tool's
//   plain object): the changed text, parsed back, is the changed object;
// - otherwise string values equal to the whole text take the changed text (a file reader's
//   `{ content }`), and every other value must still appear in the changed text.
// Anything else cannot be rebuilt without carrying what the hooks removed, so it is dropped.
function rebuiltStructure(outcome: ToolCallOutcome, tool: Tool<never, unknown>): Record<string, unknown> | undefined {
  const structured = structuredOf(outcome.raw);
  if (structured === undefined) return undefined;
  const own = ownText(tool, outcome.raw);
  if (own === undefined) return undefined;
  const asJson = parseObject(own);
  if (asJson !== undefined && JSON.stringify(asJson) === JSON.stringify(structured)) {
    return parseObject(outcome.result);
  }
  return carried(structured, own, outcome.result) as Record<string, unknown> | undefined;
}

/**
 * THE mapping of a toolware outcome to MCP's native channel (docs/adapters.md has the table):
 * - `ok`, no hook changed the result: the tool's own result (an MCP handler's `CallToolResult` as it
 *   was, `structuredContent` included; a toolware tool's value as text, plus `structuredContent` when
 *   it returned a plain object);
 * - `ok`, hooks changed it (redaction): one text part with the hooks' string; `structuredContent`
 *   follows the change where it can be traced (the text was the structured object as JSON: parsed
 *   back from the hooks' string; a value equal to the whole text: the hooks' string; every other
 *   value still in the hooks' string) and is left out otherwise, as it would carry what they removed;
 * - `blocked` and `error`: `isError: true` with toolware's agent-facing text, which names the reason.
 *
 * @example
 * ```ts
 * const outcome = await hooks.invoke(tool, input);
 * return outcomeToCallToolResult(outcome, tool); // from an McpServer tool handler
 * ```
 */
export function outcomeToCallToolResult(outcome: ToolCallOutcome, tool: Tool<never, unknown>): CallToolResult {
  if (outcome.status !== "ok") return text(outcome.result, true);
  const raw = outcome.raw;
  if (outcome.result !== ownText(tool, raw)) {
    const structuredContent = rebuiltStructure(outcome, tool);
    const changed = text(outcome.result, false);
    return structuredContent === undefined ? changed : { ...changed, structuredContent };
  }
  if (isCallToolResult(raw)) return raw;
  const result = text(outcome.result, false);
  return isPlainObject(raw) ? { ...result, structuredContent: raw } : result;
}

/** Checks a structured result against the tool's output schema: undefined when valid, else why not. @internal */
export type OutputCheck = (structured: Record<string, unknown>) => Promise<string | undefined> | string | undefined;

/**
 * The answer of a guarded call. A result hooks changed must still meet the tool's output schema
 * (`check`, when the tool has one): if its structured copy could not be rebuilt or no longer fits,
 * the call fails closed (`TOOLWARE_MCP_INVALID_RESULT`) instead of answering with what the schema refuses.
 * @internal
 */
export async function finishCall(
  outcome: ToolCallOutcome,
  tool: Tool<never, unknown>,
  check: OutputCheck | undefined,
): Promise<[ToolCallOutcome, CallToolResult]> {
  const result = outcomeToCallToolResult(outcome, tool);
  if (check === undefined || result.isError === true || result === outcome.raw) return [outcome, result];
  const structured = result.structuredContent;
  let problem: string | undefined;
  try {
    problem =
      structured === undefined
        ? "its structuredContent could not be rebuilt from the changed text"
        : await check(structured);
  } catch (error) {
    problem = `its output schema could not be checked (${messageOf(error)})`;
  }
  if (problem === undefined) return [outcome, result];
  const error = new ToolwareError(
    "TOOLWARE_MCP_INVALID_RESULT",
    `hooks changed the result of ${outcome.toolName}, which declares an output schema, and ${problem}: the result is withheld (TOOLWARE_MCP_INVALID_RESULT)`,
  );
  const failed = failedOutcome(outcome.toolName, outcome.callId, error);
  return [failed, text(failed.result, true)];
}
