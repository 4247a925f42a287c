import { AsyncLocalStorage } from "node:async_hooks";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CallToolResult, ListToolsResultSchema, type ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import {
  type BindFunction,
  failedOutcome,
  notifyOutcome,
  type OutcomeListener,
  type ToolCallHookContext,
  ToolHooks,
  ToolwareError,
  ToolwareTypeError,
} from "@toolware/core";
import { type AppToolInfo, checkAppTools, mergeMetadata, type ToolMetadata } from "./annotations.js";
import { bindFailure } from "./bindings.js";
import { type CallerSlot, type ClientEnv, type McpClientCall, runClientCall } from "./client-call.js";
import { claimGuard } from "./guarded.js";
import { outputChecks } from "./output-check.js";
import { guardTransport, isGuardedTransport } from "./wire.js";

export type { McpClientCall } from "./client-call.js";

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
const idPrefix = `mcp-${Math.random().toString(36).slice(2, 8)}`;
let idCount = 0;
const slots = new AsyncLocalStorage<CallerSlot>();

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

function nameIn(params: unknown): string {
  try {
    const name: unknown = (params as { name?: unknown }).name;
    return typeof name === "string" ? name : "";
  } catch {
    return "";
  }
}

/**
 * Runs every `tools/call` this client sends through the hooks, in place, and returns the same client.
 * The guard sits on the client's transport, so `callTool` (on the instance or `Client.prototype`),
 * `request({ method: "tools/call" })` and `callToolStream` all go through the chain; a task-augmented
 * call is refused (`TOOLWARE_MCP_UNGUARDABLE_CALL`). Tool metadata comes from the app's `tools` and,
 * only ever stricter, from the server's annotations (`destructiveHint: true` → `destructive`,
 * `readOnlyHint` → tag "read-only"). A blocked call or an error resolves to an `isError: true` result
 * with the reason: `callTool` rejects only for a `"throw"`-policy hook.
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
  const { bind, onOutcome, sendBindings = true } = checkOptions(options);
  const appTools = checkAppTools(options.tools, "guardClient()");
  if (typeof Reflect.get(client, "request") !== "function" || !("transport" in client)) {
    throw new ToolwareError(
      "TOOLWARE_MCP_UNSUPPORTED_SDK",
      "this Client does not send through a transport toolware can find (an @modelcontextprotocol/sdk version toolware does not know)",
    );
  }
  claimGuard(client, "client");
  const callTool = client.callTool;
  const listTools = client.listTools.bind(client);
  const listed = new Map<string, ToolAnnotations | undefined>();
  const described = new Map<string, string | undefined>();
  // A server that once called a tool destructive cannot take it back by listing it again.
  const everDestructive = new Set<string>();
  const checks = outputChecks(client);

  // A page the SDK's own schema refuses (a hint of "yes") is not read: its tools stay unknown, so destructive.
  const remember = (result: unknown): void => {
    const page = ListToolsResultSchema.safeParse(result);
    if (!page.success) return;
    for (const t of page.data.tools) {
      listed.set(t.name, t.annotations);
      described.set(t.name, typeof t.description === "string" ? t.description : undefined);
      if (t.annotations?.destructiveHint === true) everDestructive.add(t.name);
      checks.remember(t.name, t.outputSchema);
    }
  };

  // Reads every page once when a call names a tool not seen yet; a failure leaves it unknown.
  const refresh = async (): Promise<void> => {
    try {
      let cursor: string | undefined;
      do {
        const page = await listTools(cursor === undefined ? undefined : { cursor });
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch {
      // unknown, so the app's word and the safe defaults decide
    }
  };

  const env: ClientEnv = {
    hooks,
    bind,
    onOutcome,
    sendBindings,
    metadataOf: async (name): Promise<[ToolMetadata, ToolAnnotations | undefined]> => {
      if (!listed.has(name)) await refresh();
      const annotations = listed.get(name);
      const meta = mergeMetadata(appTools[name], annotations, described.get(name), !listed.has(name));
      return [everDestructive.has(name) ? { ...meta, destructive: true } : meta, annotations];
    },
    outputCheck: (name) => checks.get(name),
    nextId: () => `${idPrefix}-${(++idCount).toString(36)}`,
  };

  const guard = {
    call: (params: unknown, forward: Parameters<typeof runClientCall>[2], signal: AbortSignal) => {
      const caller = slots.getStore();
      // The first tools/call sent inside a callTool is that call; one a hook sends from there is its own.
      const slot = caller !== undefined && !caller.claimed ? caller : undefined;
      if (slot !== undefined) slot.claimed = true;
      return runClientCall(env, params, forward, signal, slot);
    },
    listed: remember,
  };

  let view: Transport | undefined;
  const wrap = (transport: unknown): Transport | undefined =>
    transport === undefined || transport === null ? undefined : guardTransport(transport as Transport, guard);
  view = wrap(Reflect.get(client, "_transport"));
  // Not configurable: nothing can put an unguarded transport back under the client.
  Object.defineProperty(client, "_transport", {
    configurable: false,
    enumerable: false,
    get: () => view,
    set: (next: unknown) => {
      view = wrap(next);
    },
  });
  if (view !== undefined && client.transport !== view) {
    throw new ToolwareError("TOOLWARE_MCP_UNSUPPORTED_SDK", "this Client does not send through `_transport`");
  }

  const guardedCallTool = async (
    params: Parameters<C["callTool"]>[0],
    resultSchema?: Parameters<C["callTool"]>[1],
    requestOptions?: RequestOptions,
  ): Promise<CallToolResult> => {
    const slot: CallerSlot = { options: requestOptions, claimed: false };
    const connected = client.transport;
    if (connected !== undefined && !isGuardedTransport(connected)) {
      const error = new ToolwareError("TOOLWARE_MCP_UNSUPPORTED_SDK", "this Client's transport is not guarded");
      const outcome = failedOutcome(nameIn(params), env.nextId(), error, bindFailure(error));
      return { content: [{ type: "text", text: outcome.result }], isError: true };
    }
    try {
      return (await slots.run(slot, () =>
        callTool.call(client, params, resultSchema, requestOptions),
      )) as CallToolResult;
    } catch (error) {
      if (slot.fatal !== undefined) throw slot.fatal.error;
      // Failed on the caller's side (cancelled, timed out, not connected, refused by the SDK before sending).
      // A chain that was running goes on to its end (hooks need not watch the signal) and tells onOutcome then.
      const outcome = failedOutcome(nameIn(params), env.nextId(), error, bindFailure(error));
      if (!slot.claimed) {
        const call: McpClientCall = {
          toolName: outcome.toolName,
          arguments: {},
          meta: undefined,
          options: requestOptions,
          annotations: undefined,
          callId: outcome.callId,
        };
        notifyOutcome(hooks, "mcp.onOutcome", onOutcome, outcome, call);
      }
      return { content: [{ type: "text", text: outcome.result }], isError: true };
    }
  };

  Object.defineProperty(client, "callTool", { value: guardedCallTool, configurable: true, writable: true });
  return client;
}
