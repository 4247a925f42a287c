import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import {
  announceRefused,
  type BindFunction,
  bindCall,
  defineTool,
  failedOutcome,
  HookFailedError,
  messageOf,
  notifyOutcome,
  type OutcomeListener,
  type RefusedCall,
  type Tool,
  type ToolCallOutcome,
  type ToolHooks,
  ToolwareError,
  ToolwareTypeError,
} from "@toolware/core";
import type { ToolMetadata } from "./annotations.js";
import { bindFailure, callBindings, type McpBindings } from "./bindings.js";
import { metaFor, readToolwareMeta } from "./meta.js";
import { finishCall, isCallToolResult, isValidCallToolResult, type OutputCheck, textOfResult } from "./result.js";
import type { Answer, Forward } from "./wire.js";

/** One `tools/call` of a guarded client, as `bind`, `onOutcome` and `mcpClientCall(ctx)` see it. */
export interface McpClientCall {
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The `_meta` the caller passed (toolware adds its keys to what is sent, not to this). */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** The request options of `callTool`; undefined for a call sent another way (`request`, a stream). */
  readonly options: RequestOptions | undefined;
  /** The server's annotations for the tool: its word, not the app's. */
  readonly annotations: ToolAnnotations | undefined;
  readonly callId: string;
}

/** What the instance's `callTool` passes down to the protocol-level guard, through async context. @internal */
export interface CallerSlot {
  readonly options: RequestOptions | undefined;
  claimed: boolean;
  fatal?: { readonly error: unknown };
}

/** What a guarded client runs each call with. @internal */
export interface ClientEnv {
  readonly hooks: ToolHooks;
  readonly bind: BindFunction<McpClientCall> | undefined;
  readonly onOutcome: OutcomeListener<McpClientCall> | undefined;
  readonly sendBindings: boolean;
  readonly metadataOf: (name: string) => Promise<[ToolMetadata, ToolAnnotations | undefined]>;
  readonly outputCheck: (name: string) => OutputCheck | undefined;
  readonly nextId: () => string;
}

interface Read {
  readonly name: string;
  readonly input: unknown;
  readonly meta: Record<string, unknown> | undefined;
  readonly rest: Record<string, unknown>;
  readonly task: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// Every read of what the caller sent happens here, once: a revoked Proxy or a throwing getter ends here too.
function readParams(params: unknown): Read {
  if (!isRecord(params)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_INPUT", "tools/call needs params { name, arguments? }");
  }
  const rest = { ...params };
  const { name, arguments: input, _meta: meta } = rest;
  if (typeof name !== "string") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_INPUT", "tools/call needs a tool name (a string)");
  }
  if (meta !== undefined && !isRecord(meta)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_INPUT", `tool ${name}: _meta must be an object`);
  }
  return { name, input: input === undefined ? {} : input, meta, rest, task: rest.task !== undefined };
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

const refusal = (text: string): Answer => ({ result: { content: [{ type: "text", text }], isError: true } });

/** Runs one outgoing `tools/call` through the chain and answers what the caller gets. Never rejects. @internal */
export async function runClientCall(
  env: ClientEnv,
  params: unknown,
  forward: Forward,
  signal: AbortSignal,
  slot: CallerSlot | undefined,
): Promise<Answer> {
  const { hooks, onOutcome } = env;
  let name = "";
  let callId = "";
  let call: McpClientCall = {
    toolName: name,
    arguments: {},
    meta: undefined,
    options: slot?.options,
    annotations: undefined,
    callId,
  };
  // `sent`: the call never reached the chain; the ToolHooks' listeners (the audit among them) hear of it here.
  const fail = (error: unknown, sent?: RefusedCall): Answer => {
    const failed = failedOutcome(name, callId, error, bindFailure(error));
    const outcome = sent === undefined ? failed : announceRefused(hooks, "mcp.guardClient", failed, sent);
    notifyOutcome(hooks, "mcp.onOutcome", onOutcome, outcome, call);
    return refusal(outcome.result);
  };
  let read: Read;
  try {
    read = readParams(params);
    name = read.name;
    callId = readToolwareMeta(read.meta).callId ?? env.nextId();
  } catch (error) {
    callId ||= env.nextId();
    call = { ...call, toolName: name, callId };
    return fail(error);
  }
  const [metadata, annotations] = await env.metadataOf(name);
  const input = isRecord(read.input) ? read.input : {};
  call = { ...call, toolName: name, arguments: input, meta: read.meta, annotations, callId };
  if (read.task) {
    // The answer of a task-augmented call comes later, from `tasks/result`, outside any chain: refused.
    const error = new ToolwareError(
      "TOOLWARE_MCP_UNGUARDABLE_CALL",
      `tool ${name}: a task-augmented tools/call cannot be guarded; call it without a task (TOOLWARE_MCP_UNGUARDABLE_CALL)`,
    );
    const outcome = failedOutcome(name, callId, error);
    notifyOutcome(hooks, "mcp.onOutcome", onOutcome, outcome, call);
    return { error: { code: -32600, message: outcome.result } };
  }
  let outcome: ToolCallOutcome;
  let tool: Tool<Record<string, unknown>, unknown>;
  let started = false;
  try {
    const bound: McpBindings = bindCall(env.bind, call, "@toolware/mcp guardClient");
    if (!isRecord(read.input)) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_INPUT",
        `tool ${name}: arguments must be an object, got ${kindOf(read.input)}`,
      );
    }
    tool = defineTool({
      name,
      description: metadata.description,
      tags: metadata.tags,
      destructive: metadata.destructive,
      formatResult: (raw: unknown) => (isCallToolResult(raw) ? textOfResult(raw) : (JSON.stringify(raw) ?? "")),
      execute: async (args, { signal: toolSignal }) => {
        const _meta = env.sendBindings ? metaFor(read.meta, bound, callId) : read.meta;
        const sent = { ...read.rest, arguments: args, ...(_meta === undefined ? {} : { _meta }) };
        return checked(env, name, await forward(sent, toolSignal));
      },
    });
    started = true;
    outcome = await hooks.invoke(
      tool,
      input,
      callBindings(bound, signal, callId, { name: "mcp-client", context: call }),
    );
  } catch (error) {
    if (error instanceof HookFailedError) {
      if (slot !== undefined) slot.fatal = { error };
      return { error: { code: -32603, message: messageOf(error) } };
    }
    return fail(error, started ? undefined : { input: read.input });
  }
  const [final, result] = await finishCall(outcome, tool, env.outputCheck(name));
  notifyOutcome(hooks, "mcp.onOutcome", onOutcome, final, call);
  return { result };
}

// What the plain SDK's callTool refuses (a malformed result, structured content its output schema
// refuses) and the server's own failures are failed calls for toolware too: retry and breakers see them.
async function checked(env: ClientEnv, name: string, answer: Answer): Promise<CallToolResult> {
  if ("error" in answer) {
    const { code, message } = answer.error;
    throw new ToolwareError("TOOLWARE_MCP_TOOL_ERROR", `the server answered with error ${code}: ${message}`);
  }
  const result = answer.result;
  if (!isValidCallToolResult(result)) {
    throw new ToolwareError("TOOLWARE_MCP_INVALID_RESULT", `the server's answer for ${name} is not a tool result`);
  }
  if (result.isError === true) {
    throw new ToolwareError("TOOLWARE_MCP_TOOL_ERROR", `the server reported an error: ${textOfResult(result)}`);
  }
  const check = env.outputCheck(name);
  if (check !== undefined) {
    const structured = result.structuredContent;
    const problem = structured === undefined ? "it has no structuredContent" : await check(structured);
    if (problem !== undefined) {
      throw new ToolwareError(
        "TOOLWARE_MCP_INVALID_RESULT",
        `the server's result for ${name} does not meet the tool's output schema: ${problem}`,
      );
    }
  }
  return result;
}
