import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { formatToolResult, type Tool, type ToolCallOutcome } from "@toolware/core";

/** Whether a value has the shape of an MCP tool result (a `content` array). @internal */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return value !== null && typeof value === "object" && Array.isArray((value as { content?: unknown }).content);
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

// A formatResult that throws means the hooks' string cannot be shown to be the tool's own.
function unchanged(tool: Tool<never, unknown>, outcome: ToolCallOutcome): boolean {
  try {
    return outcome.result === formatToolResult(tool, outcome.raw as never);
  } catch {
    return false;
  }
}

/**
 * THE mapping of a toolware outcome to MCP's native channel (docs/adapters.md has the table):
 * - `ok`, no hook changed the result: the tool's own result (an MCP handler's `CallToolResult` as it
 *   was, `structuredContent` included; a toolware tool's value as text, plus `structuredContent` when
 *   it returned a plain object);
 * - `ok`, hooks changed it (redaction): one text part with the hooks' string and no `structuredContent`,
 *   which would still carry what they removed;
 * - `blocked` and `error`: `isError: true` with toolware's agent-facing text, which names the reason.
 */
export function outcomeToCallToolResult(outcome: ToolCallOutcome, tool: Tool<never, unknown>): CallToolResult {
  if (outcome.status !== "ok") return text(outcome.result, true);
  if (!unchanged(tool, outcome)) return text(outcome.result, false);
  const raw = outcome.raw;
  if (isCallToolResult(raw)) return raw;
  const result = text(outcome.result, false);
  return isPlainObject(raw) ? { ...result, structuredContent: raw } : result;
}
