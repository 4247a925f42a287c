import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  getParseErrorMessage,
  normalizeObjectSchema,
  safeParseAsync,
} from "@modelcontextprotocol/sdk/server/zod-compat.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import {
  announceRefused,
  type BindFunction,
  bindCall,
  defineTool,
  failedOutcome,
  HookFailedError,
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
import { ANNOTATION_TAGS } from "./annotations.js";
import { bindFailure, callBindings, type McpBindings } from "./bindings.js";
import { asCall, closeCall, elicitParams, openCall } from "./elicitation.js";
import { claimGuard } from "./guarded.js";
import { finishCall, isCallToolResult, isValidCallToolResult, type OutputCheck, textOfResult } from "./result.js";
import { servedTool } from "./served.js";

/** What a tool handler of an McpServer receives besides its arguments. */
export type McpRequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** One tool call a guarded server received, as `bind`, `onOutcome` and `mcpServerCall(ctx)` see it. */
export interface McpServerCall {
  readonly toolName: string;
  readonly extra: McpRequestExtra;
  /** The request's `_meta` (the client's word; see readToolwareMeta). */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** What the transport's authentication established about the client, if anything. */
  readonly authInfo: AuthInfo | undefined;
  readonly callId: string;
}

/** Options of {@link guardServer}. */
export interface GuardServerOptions {
  /** Picks the agent, task and crew of each call (from `authInfo`, `meta`, …). A throw or a wrong value fails that call closed. */
  bind?: BindFunction<McpServerCall>;
  /** Told how every call ended; what it throws goes to the ToolHooks' `onListenerError`. */
  onOutcome?: OutcomeListener<McpServerCall>;
}

type AnyHandler = (...args: unknown[]) => unknown;
const guarded = new WeakSet<object>();

/** Whether {@link guardServer} guards this server (for serveTool). @internal */
export function isGuarded(server: object): boolean {
  return guarded.has(server);
}

/**
 * The MCP request behind a hook's context, when the call came through {@link guardServer}.
 *
 * @example
 * ```ts
 * hooks.before((ctx) => mcpServerCall(ctx)?.authInfo?.scopes.includes("files:write") === true);
 * ```
 */
export function mcpServerCall(ctx: ToolCallHookContext): McpServerCall | undefined {
  const framework = ctx.framework;
  return framework?.name === "mcp-server" ? (framework.context as McpServerCall) : undefined;
}

function checkOptions(options: unknown): GuardServerOptions {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "guardServer() options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (key !== "bind" && key !== "onOutcome") {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `guardServer(): unknown option \`${key}\` (allowed: bind, onOutcome)`,
      );
    }
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined && typeof value !== "function") {
      throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `guardServer(): \`${key}\` must be a function`);
    }
  }
  return options as GuardServerOptions;
}

// The SDK checks a handler's result after the handler returns; a guarded handler gives that check the
// malformed value back, so a guarded server answers as a plain one (-32602, or isError).
interface Malformed {
  value?: { readonly result: unknown };
}

// What the SDK would check after the handler: the registered output schema (zod), the same way.
function outputCheckOf(rt: RegisteredTool): OutputCheck | undefined {
  const schema = normalizeObjectSchema(rt.outputSchema);
  if (schema === undefined) return undefined;
  return async (structured) => {
    const parsed = await safeParseAsync(schema, structured);
    return parsed.success ? undefined : getParseErrorMessage(parsed.error);
  };
}

// The server's own annotations are the app's word here, so they count as declared.
function toolFor(
  name: string,
  rt: RegisteredTool,
  raw: AnyHandler,
  extra: McpRequestExtra,
  malformed: Malformed,
): Tool<Record<string, unknown>, unknown> {
  const served = servedTool(raw);
  const a = (rt.annotations ?? {}) as Record<string, unknown>;
  const tags = new Set(served?.tags ?? []);
  for (const [hint, tag] of Object.entries(ANNOTATION_TAGS)) if (a[hint] === true) tags.add(tag);
  const destructive = served?.destructive === true || a.destructiveHint === true;
  const description = served?.description ?? rt.description;
  if (served !== undefined) {
    return defineTool({
      name,
      description,
      tags: [...tags],
      destructive,
      ...(served.formatResult === undefined ? {} : { formatResult: served.formatResult.bind(served) }),
      execute: (args, options) => served.execute(args, options),
    });
  }
  return defineTool({
    name,
    description,
    tags: [...tags],
    destructive,
    formatResult: (r: unknown) => (isCallToolResult(r) ? textOfResult(r) : (JSON.stringify(r) ?? "")),
    execute: async (args, { signal }) => {
      // The handler sees the tool's signal: the client's cancellation and any hook's (a timeout) abort it.
      const own = { ...extra, signal };
      const result = rt.inputSchema === undefined ? await raw(own) : await raw(args, own);
      if (!isValidCallToolResult(result)) {
        malformed.value = { result };
        throw new ToolwareError(
          "TOOLWARE_MCP_INVALID_RESULT",
          `tool ${name} returned something that is no tool result`,
        );
      }
      if (result.isError === true) {
        throw new ToolwareError("TOOLWARE_MCP_TOOL_ERROR", `the tool reported an error: ${textOfResult(result)}`);
      }
      return result;
    },
  });
}

/**
 * Runs every tool handler of this McpServer inside the hooks' chain, in place, including tools
 * registered (or given a new callback) after this call, and returns the same server. A blocked call
 * or an error is an `isError: true` result whose text names the reason.
 *
 * @example
 * ```ts
 * const server = guardServer(new McpServer({ name: "files", version: "1.0.0" }), hooks, {
 *   bind: ({ authInfo }) => ({ agent: authInfo?.clientId === "intern" ? intern : undefined }),
 * });
 * ```
 */
export function guardServer<S extends McpServer>(server: S, hooks: ToolHooks, options: GuardServerOptions = {}): S {
  if (server === null || typeof server !== "object" || typeof server.registerTool !== "function") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      "guardServer() needs an McpServer (from @modelcontextprotocol/sdk/server/mcp.js)",
    );
  }
  if (!(hooks instanceof ToolHooks)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "guardServer() needs a ToolHooks as its second argument");
  }
  const { bind, onOutcome } = checkOptions(options);
  const registry: unknown = Reflect.get(server, "_registeredTools");
  if (registry === null || typeof registry !== "object") {
    // Guarding nothing while looking guarded would be the worst outcome: refuse instead.
    throw new ToolwareError(
      "TOOLWARE_MCP_UNSUPPORTED_SDK",
      "this McpServer keeps its tools where toolware cannot find them (an @modelcontextprotocol/sdk version toolware does not know)",
    );
  }
  claimGuard(server, "server");
  const names = new WeakMap<RegisteredTool, string>();

  const run = async (rt: RegisteredTool, raw: AnyHandler, args: unknown[]): Promise<CallToolResult> => {
    const name = names.get(rt) ?? "";
    const hasInput = rt.inputSchema !== undefined;
    const extra = (hasInput ? args[1] : args[0]) as McpRequestExtra;
    const input = (hasInput ? args[0] : {}) as Record<string, unknown>;
    const base =
      extra.sessionId === undefined ? String(extra.requestId) : `${extra.sessionId}:${String(extra.requestId)}`;
    const callId = openCall(base, (request) =>
      server.server.elicitInput(elicitParams(request), { relatedRequestId: extra.requestId, signal: request.signal }),
    );
    try {
      const call: McpServerCall = { toolName: name, extra, meta: extra._meta, authInfo: extra.authInfo, callId };
      let bound: McpBindings;
      try {
        bound = bindCall(bind, call, "@toolware/mcp guardServer");
      } catch (error) {
        // The call never reached the chain: the ToolHooks' listeners (the audit among them) hear of it here.
        const failed = failedOutcome(name, callId, error, bindFailure(error));
        const outcome = announceRefused(hooks, "mcp.guardServer", failed, { input });
        notifyOutcome(hooks, "mcp.onOutcome", onOutcome, outcome, call);
        return { content: [{ type: "text", text: outcome.result }], isError: true };
      }
      const malformed: Malformed = {};
      let tool: Tool<Record<string, unknown>, unknown>;
      let outcome: ToolCallOutcome;
      try {
        tool = toolFor(name, rt, raw, extra, malformed);
        const framework = { name: "mcp-server" as const, context: call };
        outcome = await asCall(callId, () =>
          hooks.invoke(tool, input, callBindings(bound, extra.signal, callId, framework)),
        );
      } catch (error) {
        // Only a "throw"-policy hook ends the call with a throw (the SDK makes it an isError result).
        // Anything else core refuses (a request id as a call id, a value no tool can take) fails closed.
        if (error instanceof HookFailedError) throw error;
        const failed = failedOutcome(name, callId, error, bindFailure(error));
        notifyOutcome(hooks, "mcp.onOutcome", onOutcome, failed, call);
        return { content: [{ type: "text", text: failed.result }], isError: true };
      }
      if (
        outcome.status === "error" &&
        malformed.value !== undefined &&
        toolwareCode(outcome.error) === "TOOLWARE_MCP_INVALID_RESULT"
      ) {
        notifyOutcome(hooks, "mcp.onOutcome", onOutcome, outcome, call);
        return malformed.value.result as CallToolResult;
      }
      const [final, result] = await finishCall(outcome, tool, outputCheckOf(rt));
      notifyOutcome(hooks, "mcp.onOutcome", onOutcome, final, call);
      return result;
    } finally {
      closeCall(callId);
    }
  };

  const install = (name: string, rt: RegisteredTool): void => {
    names.set(rt, name);
    if (Object.getOwnPropertyDescriptor(rt, "handler")?.get !== undefined) return; // renamed: already guarded
    let raw = rt.handler as unknown;
    const check = (handler: unknown): AnyHandler => {
      if (typeof handler !== "function") {
        throw new ToolwareTypeError(
          "TOOLWARE_MCP_UNGUARDABLE_TOOL",
          `tool ${name}: only plain tool callbacks can be guarded (task-based tools from registerToolTask cannot)`,
        );
      }
      return handler as AnyHandler;
    };
    check(raw);
    const handler = (...args: unknown[]) => run(rt, raw as AnyHandler, args);
    Object.defineProperty(rt, "handler", {
      configurable: true,
      enumerable: true,
      get: () => handler,
      set: (next: unknown) => {
        raw = check(next);
      },
    });
  };

  for (const [name, rt] of Object.entries(registry as Record<string, RegisteredTool>)) install(name, rt);
  const proxy = new Proxy(registry as Record<string, RegisteredTool>, {
    set(target, key, value, receiver) {
      if (typeof key === "string" && value !== null && typeof value === "object") install(key, value as RegisteredTool);
      return Reflect.set(target, key, value, receiver);
    },
  });
  Reflect.set(server, "_registeredTools", proxy);
  guarded.add(server);
  return server;
}
