import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  type ClientCapabilities,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
  type ServerCapabilities,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Naming, Route, Tool } from "./catalog.js";
import { asGatewayCall } from "./context.js";
import type { GatewayEvent, GatewayOptions, GatewaySession } from "./contract.js";
import { Listings } from "./listings.js";
import { answerInvalidParams } from "./params.js";
import { ANY_RESULT, connectUpstream, type Downstream, type Upstream } from "./upstream.js";

/** What every session of one gateway shares. @internal */
export interface SessionEnv {
  readonly options: GatewayOptions;
  readonly naming: Naming;
  readonly capabilities: ServerCapabilities;
  readonly version: string;
  readonly emit: (event: GatewayEvent) => void;
  /** Counts a forwarded call in flight until it settles (the gateway drains on close). */
  readonly track: <T>(work: Promise<T>) => Promise<T>;
}

// A call may wait for a person (an approval) or a slow tool: the SDK's 60 s default would cut it short.
const CALL_TIMEOUT_MS = 30 * 60_000;
let sessionCount = 0;

function notFound(name: string): CallToolResult {
  // The same words for a tool that does not exist and one the policy hides: the answer enumerates nothing.
  return { content: [{ type: "text", text: `Tool ${JSON.stringify(name.slice(0, 200))} not found` }], isError: true };
}

/** Serves one client: a server of its own, and its own connection to each upstream. @internal */
export async function openSession(
  env: SessionEnv,
  transport: Transport,
  kind: "stdio" | "http",
  id = `${kind}-${(++sessionCount).toString(36)}`,
  onEnd?: () => void,
): Promise<GatewaySession & { toolsChanged(): void }> {
  const { options, emit } = env;
  const info = options.serverInfo ?? { name: "toolware-gateway", version: env.version };
  const server = new Server({ name: info.name, version: info.version }, { capabilities: env.capabilities });
  answerInvalidParams(server);
  const downstream: Downstream = {
    request: (request, signal) => server.request(request, ANY_RESULT, { signal, timeout: CALL_TIMEOUT_MS }),
    notify: async (notification) => {
      try {
        await server.notification(notification as never);
      } catch {
        // a notification the client cannot take (it declared no such capability) is dropped, not fatal
      }
    },
  };
  let connecting: Promise<Upstream[]> | undefined;
  let closed = false;
  const upstreams = (): Promise<Upstream[]> => {
    connecting ??= (async () => {
      const caps: ClientCapabilities = server.getClientCapabilities() ?? {};
      const settled = await Promise.allSettled(
        options.upstreams.map((c) =>
          connectUpstream(c, options.hooks, caps, downstream, emit, env.version, {
            session: id,
            restart: options.restart,
          }),
        ),
      );
      const ok = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
      const failed = settled.find((s) => s.status === "rejected");
      if (failed !== undefined || closed) {
        await Promise.allSettled(ok.map((u) => u.close()));
        throw new McpError(ErrorCode.InternalError, "an upstream server could not be reached");
      }
      return ok;
    })();
    return connecting;
  };
  const listings = new Listings(env, upstreams);
  const client = () => {
    const c = server.getClientVersion();
    return c === undefined ? undefined : { name: String(c.name), version: String(c.version) };
  };

  server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => ({
    tools: (await listings.tools(extra.signal)).items.filter((t: Tool) => !listings.isHidden(t.name)),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    let route: Route | undefined = await listings.toolRoute(name, extra.signal);
    if (route === undefined || listings.isHidden(name)) {
      emit({ type: "refused", session: id, tool: name.slice(0, 200), reason: "unknown or hidden tool" });
      return notFound(name);
    }
    const { _meta, ...params } = request.params;
    const token = _meta?.progressToken;
    const { progressToken: _t, ...meta } = _meta ?? {};
    const started = performance.now();
    const elicit =
      server.getClientCapabilities()?.elicitation === undefined
        ? undefined
        : (q: { prompt: string; signal: AbortSignal }) =>
            server.elicitInput(
              {
                message: q.prompt,
                requestedSchema: {
                  type: "object",
                  properties: { answer: { type: "string", title: "Answer" } },
                  required: ["answer"],
                },
              },
              { signal: q.signal, relatedRequestId: extra.requestId, timeout: CALL_TIMEOUT_MS },
            );
    const call = {
      session: id,
      upstream: route.upstream.config.name,
      exposedName: name,
      client: client(),
      elicit,
      input: params.arguments ?? {},
    };
    const target = route;
    const result = await env.track(
      asGatewayCall(call, () =>
        target.upstream.client.callTool(
          { ...params, name: target.name, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) },
          undefined,
          {
            signal: extra.signal,
            timeout: CALL_TIMEOUT_MS,
            resetTimeoutOnProgress: true,
            ...(token === undefined
              ? {}
              : {
                  onprogress: (p) =>
                    void extra
                      .sendNotification({ method: "notifications/progress", params: { ...p, progressToken: token } })
                      .catch(() => undefined),
                }),
          },
        ),
      ),
    );
    route = undefined;
    emit({
      type: "call",
      session: id,
      upstream: call.upstream,
      tool: name,
      isError: result.isError === true,
      durationMs: performance.now() - started,
    });
    return result as CallToolResult;
  });

  const caps = env.capabilities;
  if (caps.prompts !== undefined) {
    server.setRequestHandler(ListPromptsRequestSchema, async (_r, extra) => ({
      prompts: (await listings.prompts(extra.signal)).items,
    }));
    server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
      const route = await listings.promptRoute(request.params.name, extra.signal);
      if (route === undefined) throw new McpError(ErrorCode.InvalidParams, `Prompt ${request.params.name} not found`);
      return route.upstream.client.request(
        { method: "prompts/get", params: { ...request.params, name: route.name } },
        ANY_RESULT,
        { signal: extra.signal },
      ) as never;
    });
  }
  if (caps.resources !== undefined) {
    server.setRequestHandler(ListResourcesRequestSchema, async (_r, extra) => ({
      resources: await listings.resources(extra.signal),
    }));
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async (_r, extra) => ({
      resourceTemplates: await listings.templates(extra.signal),
    }));
    for (const schema of [ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema]) {
      server.setRequestHandler(
        schema,
        async (request, extra) =>
          listings.byUri(request.params.uri, extra.signal, (u) =>
            u.client.request({ method: request.method, params: request.params }, ANY_RESULT, { signal: extra.signal }),
          ) as never,
      );
    }
  }
  if (caps.completions !== undefined) {
    server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
      const ref = request.params.ref;
      const forward = (u: Upstream, params: Record<string, unknown>) =>
        u.client.request({ method: "completion/complete", params }, ANY_RESULT, { signal: extra.signal });
      if (ref.type === "ref/prompt") {
        const route = await listings.promptRoute(ref.name, extra.signal);
        if (route === undefined) throw new McpError(ErrorCode.InvalidParams, `Prompt ${ref.name} not found`);
        return forward(route.upstream, { ...request.params, ref: { ...ref, name: route.name } }) as never;
      }
      return listings.byUri(ref.uri, extra.signal, (u) => forward(u, request.params)) as never;
    });
  }
  if (caps.logging !== undefined) {
    server.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
      const all = (await upstreams()).filter((u) => u.capabilities.logging !== undefined);
      await Promise.all(all.map((u) => u.client.request(request, ANY_RESULT, { signal: extra.signal })));
      return {};
    });
  }
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    for (const u of await upstreams()) await u.client.sendRootsListChanged().catch(() => undefined);
  });
  // Connected once the client says it is initialized: its capabilities are then known, and mirrored upstream.
  server.oninitialized = () => void upstreams().catch(() => undefined);

  let ended = false;
  const end = async (): Promise<void> => {
    if (ended) return;
    ended = true;
    closed = true;
    const up = connecting === undefined ? [] : await connecting.catch(() => []);
    await Promise.allSettled(up.map((u) => u.close()));
    await server.close().catch(() => undefined);
    emit({ type: "session-closed", session: id });
    onEnd?.();
  };
  server.onclose = () => void end();
  await server.connect(transport);
  emit({ type: "session-opened", session: id, transport: kind });
  listings.onToolsChanged = () => void server.sendToolListChanged().catch(() => undefined);
  return { id, close: end, toolsChanged: () => listings.invalidate() };
}
