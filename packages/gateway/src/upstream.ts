import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type Notification,
  type Request,
  ResultSchema,
  type ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import type { ToolHooks } from "@toolware/core";
import { guardClient } from "@toolware/mcp";
import type { GatewayEvent, RestartOptions, UpstreamConfig } from "./contract.js";
import { restartPolicy } from "./restart-policy.js";
import { SupervisedTransport } from "./supervised.js";
import { untrustedTransport } from "./untrusted.js";

/** Where an upstream's requests and notifications to its client go: the session's client. @internal */
export interface Downstream {
  request(request: Request, signal: AbortSignal): Promise<Record<string, unknown>>;
  notify(notification: Notification): Promise<void>;
}

/** One connected upstream of one session. @internal */
export interface Upstream {
  readonly config: UpstreamConfig;
  /** Guarded: every tools/call it sends runs the hooks. */
  readonly client: Client;
  readonly capabilities: ServerCapabilities;
  /** A supervised stdio upstream's state (`up`, `restarting`, `down`, `closed`); undefined for the others. */
  readonly state?: () => string;
  close(): Promise<void>;
}

/** A session's connection is supervised (restarted when its stdio child crashes); probes are not. @internal */
export interface Supervise {
  readonly session: string;
  readonly restart: RestartOptions | undefined;
}

// The notifications the protocol layer handles itself on both sides (a request's progress and cancellation).
const OWN = new Set(["notifications/progress", "notifications/cancelled"]);

function transportOf(config: UpstreamConfig): Transport {
  if ("url" in config) {
    return new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { ...(config.headers ?? {}) } },
    });
  }
  return new StdioClientTransport({
    command: config.command,
    args: [...(config.args ?? [])],
    env: { ...getDefaultEnvironment(), ...(config.env ?? {}) },
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    stderr: "inherit",
  });
}

/**
 * Connects one upstream for one session, declaring exactly the capabilities the session's client declared (a server
 * that asks for roots only asks a client that has them), and guards its client with the hooks. @internal
 */
export async function connectUpstream(
  config: UpstreamConfig,
  hooks: ToolHooks,
  clientCapabilities: ClientCapabilities,
  downstream: Downstream | undefined,
  emit: (event: GatewayEvent) => void,
  version: string,
  supervise?: Supervise,
): Promise<Upstream> {
  const capabilities: ClientCapabilities = {};
  for (const key of ["sampling", "elicitation", "roots"] as const) {
    if (downstream !== undefined && clientCapabilities[key] !== undefined) {
      (capabilities as Record<string, unknown>)[key] = clientCapabilities[key];
    }
  }
  const client = new Client({ name: "toolware-gateway", version }, { capabilities });
  if (downstream !== undefined) {
    const forward = async (request: Request, extra: { signal: AbortSignal }) =>
      downstream.request(request, extra.signal) as never;
    if (capabilities.sampling !== undefined) client.setRequestHandler(CreateMessageRequestSchema, forward);
    if (capabilities.elicitation !== undefined) client.setRequestHandler(ElicitRequestSchema, forward);
    if (capabilities.roots !== undefined) client.setRequestHandler(ListRootsRequestSchema, forward);
    client.fallbackNotificationHandler = async (notification) => {
      if (!OWN.has(notification.method)) await downstream.notify(notification);
    };
  }
  guardClient(client, hooks);
  const stdio = "command" in config ? config : undefined;
  const policy = stdio && supervise && restartPolicy(supervise.restart, stdio.restart);
  const supervised =
    policy === undefined
      ? undefined
      : new SupervisedTransport(() => transportOf(config), {
          session: (supervise as Supervise).session,
          upstream: config.name,
          policy,
          emit,
        });
  const raw = supervised ?? transportOf(config);
  const transport = config.trusted === false ? untrustedTransport(raw) : raw;
  let closing = false;
  client.onclose = () => {
    if (!closing) emit({ type: "upstream-closed", upstream: config.name });
  };
  client.onerror = (error) => emit({ type: "upstream-error", upstream: config.name, error });
  await client.connect(transport);
  emit({ type: "upstream-connected", upstream: config.name });
  return {
    config,
    client,
    capabilities: client.getServerCapabilities() ?? {},
    ...(supervised === undefined ? {} : { state: () => supervised.state }),
    close: async () => {
      closing = true;
      await client.close();
    },
  };
}

/** The generic result schema: forwarded results keep every field the other side sent. @internal */
export const ANY_RESULT = ResultSchema.passthrough();
