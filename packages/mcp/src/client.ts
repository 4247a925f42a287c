import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ListToolsResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import {
  type BindFunction,
  bindCall,
  defineTool,
  failedOutcome,
  messageOf,
  notifyOutcome,
  type OutcomeListener,
  type Tool,
  type ToolCallHookContext,
  type ToolCallOutcome,
  ToolHooks,
  ToolwareError,
  ToolwareTypeError,
  toolwareCode,
} from "@toolware/core";
import { type AppToolInfo, checkAppTools, mergeMetadata, type ToolMetadata } from "./annotations.js";
import { bindFailure, callBindings, type McpBindings } from "./bindings.js";
import { metaFor, readToolwareMeta } from "./meta.js";
import { isCallToolResult, outcomeToCallToolResult, textOfResult } from "./result.js";

/** One `callTool` of a guarded client, as `bind`, `onOutcome` and `mcpClientCall(ctx)` see it. */
export interface McpClientCall {
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The `_meta` the caller passed (toolware adds its keys to what is sent, not to this). */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly options: RequestOptions | undefined;
  /** The server's annotations for the tool: its word, not the app's. */
  readonly annotations: ToolAnnotations | undefined;
  readonly callId: string;
}

/** Options of {@link guardClient}. */
export interface GuardClientOptions {
  /** Picks the agent, task and crew of each call. A throw or a wrong value fails that call closed. */
  bind?: BindFunction<McpClientCall>;
  /** What the app knows about the server's tools; annotations can add to it, never take away. */
  tools?: Readonly<Record<string, AppToolInfo>>;
  /** Told how every call ended; what it throws goes to the ToolHooks' `onListenerError`. */
  onOutcome?: OutcomeListener<McpClientCall>;
  /** Send the call's bindings to the server in `_meta` (see TOOLWARE_META). Default true. */
  sendBindings?: boolean;
}

const OPTION_KEYS = new Set(["bind", "tools", "onOutcome", "sendBindings"]);
const guarded = new WeakSet<object>();
const idPrefix = `mcp-${Math.random().toString(36).slice(2, 8)}`;
let idCount = 0;

interface Listed {
  readonly annotations: ToolAnnotations | undefined;
  readonly description: string | undefined;
}

function checkOptions(options: unknown): GuardClientOptions {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "guardClient() options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `guardClient(): unknown option \`${key}\` (allowed: bind, tools, onOutcome, sendBindings)`,
      );
    }
  }
  const o = options as GuardClientOptions;
  for (const key of ["bind", "onOutcome"] as const) {
    if (o[key] !== undefined && typeof o[key] !== "function") {
      throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `guardClient(): \`${key}\` must be a function`);
    }
  }
  if (o.sendBindings !== undefined && typeof o.sendBindings !== "boolean") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "guardClient(): `sendBindings` must be true or false");
  }
  return o;
}

/**
 * The MCP client call behind a hook's context, when the call came through {@link guardClient}.
 *
 * @example
 * ```ts
 * hooks.before((ctx) => mcpClientCall(ctx)?.annotations?.openWorldHint !== true);
 * ```
 */
export function mcpClientCall(ctx: ToolCallHookContext): McpClientCall | undefined {
  const framework = ctx.framework;
  return framework?.name === "mcp-client" ? (framework.context as McpClientCall) : undefined;
}

/**
 * Runs every `callTool` of this client through the hooks, in place, and returns the same client.
 * Tool metadata comes from the app's `tools` and, only ever stricter, from the server's annotations
 * (`destructiveHint: true` → `destructive`, `readOnlyHint` → tag "read-only"). A blocked call or an
 * error resolves to an `isError: true` result with the reason (see `outcomeToCallToolResult`).
 *
 * @example
 * ```ts
 * const client = guardClient(new Client({ name: "app", version: "1.0.0" }), hooks);
 * await client.connect(transport);
 * await client.callTool({ name: "write_file", arguments: { path, content } }); // isError: blocked
 * ```
 */
export function guardClient<C extends Client>(client: C, hooks: ToolHooks, options: GuardClientOptions = {}): C {
  if (client === null || typeof client !== "object" || typeof client.callTool !== "function") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      "guardClient() needs an MCP Client (from @modelcontextprotocol/sdk)",
    );
  }
  if (!(hooks instanceof ToolHooks)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "guardClient() needs a ToolHooks as its second argument");
  }
  if (guarded.has(client)) {
    throw new ToolwareTypeError(
      "TOOLWARE_MCP_ALREADY_GUARDED",
      "this client is already guarded: its calls would run two chains",
    );
  }
  const { bind, onOutcome, sendBindings = true } = checkOptions(options);
  const appTools = checkAppTools(options.tools, "guardClient()");
  const callTool = client.callTool.bind(client);
  const listTools = client.listTools.bind(client);
  const listed = new Map<string, Listed>();
  // A server that once called a tool destructive cannot take it back by listing it again.
  const everDestructive = new Set<string>();

  const remember = (result: ListToolsResult): void => {
    for (const t of result.tools) {
      listed.set(t.name, { annotations: t.annotations, description: t.description });
      if (t.annotations?.destructiveHint === true) everDestructive.add(t.name);
    }
  };

  const guardedListTools: typeof client.listTools = async (params, requestOptions) => {
    const result = await listTools(params, requestOptions);
    remember(result);
    return result;
  };

  // Reads every page once when a call names a tool not seen yet; a failure leaves it unknown.
  const refresh = async (requestOptions: RequestOptions | undefined): Promise<boolean> => {
    try {
      let cursor: string | undefined;
      do {
        const page = await listTools(cursor === undefined ? undefined : { cursor }, { signal: requestOptions?.signal });
        remember(page);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return true;
    } catch {
      return false;
    }
  };

  const metadataOf = async (
    name: string,
    requestOptions: RequestOptions | undefined,
  ): Promise<[ToolMetadata, Listed | undefined]> => {
    if (!listed.has(name)) await refresh(requestOptions);
    const found = listed.get(name);
    const meta = mergeMetadata(appTools[name], found?.annotations, found?.description, found === undefined);
    return [everDestructive.has(name) ? { ...meta, destructive: true } : meta, found];
  };

  const guardedCallTool = async (
    params: Parameters<C["callTool"]>[0],
    resultSchema?: Parameters<C["callTool"]>[1],
    requestOptions?: RequestOptions,
  ): Promise<CallToolResult> => {
    if (params === null || typeof params !== "object" || typeof params.name !== "string") {
      throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "callTool() needs { name, arguments? }");
    }
    const name = params.name;
    const input = params.arguments ?? {};
    const ownMeta = params._meta as Record<string, unknown> | undefined;
    const callId = readToolwareMeta(ownMeta).callId ?? `${idPrefix}-${(++idCount).toString(36)}`;
    const [metadata, found] = await metadataOf(name, requestOptions);
    const call: McpClientCall = {
      toolName: name,
      arguments: input,
      meta: ownMeta,
      options: requestOptions,
      annotations: found?.annotations,
      callId,
    };
    let bound: McpBindings;
    try {
      bound = bindCall(bind, call, "@toolware/mcp guardClient");
    } catch (error) {
      const outcome = failedOutcome(name, callId, error, bindFailure(error));
      notifyOutcome(hooks, "mcp.onOutcome", onOutcome, outcome, call);
      return { content: [{ type: "text", text: outcome.result }], isError: true };
    }
    const tool: Tool<Record<string, unknown>, unknown> = defineTool({
      name,
      description: metadata.description,
      tags: metadata.tags,
      destructive: metadata.destructive,
      formatResult: (raw: unknown) => (isCallToolResult(raw) ? textOfResult(raw) : (JSON.stringify(raw) ?? "")),
      execute: async (args, { signal }) => {
        const _meta = sendBindings ? metaFor(ownMeta, bound, callId) : ownMeta;
        const sent = { ...params, arguments: args, ...(_meta === undefined ? {} : { _meta }) };
        const result = await callTool(sent, resultSchema, { ...requestOptions, signal });
        // The server's own failure is a failed call for toolware too (retry, circuit breakers see it).
        if (isCallToolResult(result) && result.isError === true) {
          throw new ToolwareError("TOOLWARE_MCP_TOOL_ERROR", `the server reported an error: ${textOfResult(result)}`);
        }
        return result;
      },
    });
    let outcome: ToolCallOutcome;
    try {
      outcome = await hooks.invoke(
        tool,
        input as Record<string, unknown>,
        callBindings(bound, requestOptions?.signal, callId, { name: "mcp-client", context: call }),
      );
    } catch (error) {
      // A caller's `toolware/callId` that core refuses (too long, unprintable), or arguments that are no
      // object (a model's `[1]`), fail this call, closed: the host's loop reads an isError result.
      const code = toolwareCode(error);
      if (code !== "TOOLWARE_INVALID_BINDINGS" && code !== "TOOLWARE_INVALID_INPUT") throw error;
      outcome = failedOutcome(name, callId, error, messageOf(error));
    }
    notifyOutcome(hooks, "mcp.onOutcome", onOutcome, outcome, call);
    return outcomeToCallToolResult(outcome, tool);
  };

  Object.defineProperty(client, "callTool", { value: guardedCallTool, configurable: true, writable: true });
  Object.defineProperty(client, "listTools", { value: guardedListTools, configurable: true, writable: true });
  guarded.add(client);
  return client;
}
