import type { ServerCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { ToolwareError } from "@toolware/core";
import { allPages, deniedOutright, describeTools, exposeAll, type Naming, prefixOf, type Tool } from "./catalog.js";
import type { Gateway, GatewayEvent, GatewayOptions, GatewaySession } from "./contract.js";
import { listenHttp } from "./http.js";
import { answerMalformed } from "./malformed.js";
import { checkGatewayOptions, checkListenOptions } from "./options.js";
import { Health } from "./readiness.js";
import { openSession, type SessionEnv } from "./session.js";
import { connectUpstream, type Upstream } from "./upstream.js";

const VERSION = "0.0.0";

// What the gateway offers its clients: what any upstream offers (tools always, as a gateway is for them).
function unionOf(upstreams: readonly Upstream[]): ServerCapabilities {
  const caps: ServerCapabilities = { tools: { listChanged: true } };
  for (const { capabilities: c } of upstreams) {
    if (c.prompts !== undefined) caps.prompts = { listChanged: true };
    if (c.resources !== undefined) {
      caps.resources = { ...caps.resources, listChanged: true, ...(c.resources.subscribe ? { subscribe: true } : {}) };
    }
    if (c.completions !== undefined) caps.completions = {};
    if (c.logging !== undefined) caps.logging = {};
  }
  return caps;
}

/**
 * A gateway in front of one or several MCP servers: clients connect to it (stdio, Streamable HTTP, any transport) as
 * to a server, every `tools/call` runs through the hooks (the policy), and everything else passes through both ways.
 * Each client session gets its own connection to each upstream, with the client's own capabilities.
 *
 * @example
 * ```ts
 * const policy = await watchPolicy("toolware.policy.yaml");
 * const hooks = new ToolHooks({ humanInput: gatewayElicitation() }).use(policy);
 * const gateway = createGateway({ upstreams: [{ name: "fs", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] }], hooks, policy });
 * await gateway.start();
 * await gateway.connect(new StdioServerTransport());
 * ```
 */
export function createGateway(options: GatewayOptions): Gateway {
  const checked = checkGatewayOptions(options);
  const count = checked.upstreams.length;
  const naming: Naming = {
    separator: checked.separator ?? "__",
    prefixes: new Map(checked.upstreams.map((u) => [u.name, prefixOf(u.prefix, u.name, count)])),
  };
  const health = new Health(checked.upstreams);
  const emit = (event: GatewayEvent): void => {
    health.observe(event);
    try {
      checked.onEvent?.(event);
    } catch {
      // a listener's failure is its own
    }
  };
  const sessions = new Set<GatewaySession & { toolsChanged(): void }>();
  let inFlight = 0;
  let drained: (() => void) | undefined;
  let env: SessionEnv | undefined;
  let closing = false;

  const track = async <T>(work: Promise<T>): Promise<T> => {
    inFlight++;
    try {
      return await work;
    } finally {
      inFlight--;
      if (inFlight === 0) drained?.();
    }
  };

  // A first connection to every upstream, without client capabilities: can each be reached, and what does it offer.
  const probe = async (): Promise<Upstream[]> =>
    Promise.all(checked.upstreams.map((c) => connectUpstream(c, checked.hooks, {}, undefined, emit, VERSION)));

  const ready = (): SessionEnv => {
    if (env === undefined) throw new ToolwareError("TOOLWARE_GATEWAY_NOT_STARTED", "call gateway.start() first");
    if (closing) throw new ToolwareError("TOOLWARE_GATEWAY_CLOSED", "the gateway is closing");
    return env;
  };

  const gateway: Gateway = {
    async start() {
      if (env !== undefined) return;
      let ups: Upstream[] = [];
      try {
        ups = await probe();
      } catch (error) {
        throw new ToolwareError("TOOLWARE_GATEWAY_UPSTREAM", `an upstream could not be reached: ${String(error)}`, {
          cause: error,
        });
      }
      const capabilities = unionOf(ups);
      await Promise.allSettled(ups.map((u) => u.close()));
      env = { options: checked, naming, capabilities, version: VERSION, emit, track };
    },

    async tools() {
      ready();
      const ups = await probe();
      try {
        const lists = await Promise.all(
          ups.map(async (u) => [u, await allPages<Tool>((cursor) => u.client.listTools({ cursor }), "tools")] as const),
        );
        const { items, routes } = exposeAll(lists, naming);
        const policy = checked.policy;
        const hidden = new Set(
          policy === undefined || checked.hideDenied === false
            ? []
            : lists
                .flatMap(([, list]) => list)
                .filter((t) => deniedOutright(policy, t))
                .map((t) => t.name),
        );
        return describeTools(
          items,
          routes,
          new Set(items.filter((t) => hidden.has(routes.get(t.name)?.name ?? "")).map((t) => t.name)),
        );
      } finally {
        await Promise.allSettled(ups.map((u) => u.close()));
      }
    },

    async connect(transport) {
      const session = await openSession(ready(), answerMalformed(transport), "stdio", undefined, () =>
        sessions.delete(session),
      );
      sessions.add(session);
      return session;
    },

    async listen(listenOptions) {
      const opts = checkListenOptions(listenOptions);
      ready();
      return listenHttp(
        opts,
        async (transport, id, onEnd) => {
          const session = await openSession(ready(), transport, "http", id, () => {
            sessions.delete(session);
            onEnd();
          });
          sessions.add(session);
          return session;
        },
        () => health.check(env === undefined ? "not-started" : closing ? "closing" : "started"),
      );
    },

    toolsChanged() {
      for (const s of sessions) s.toolsChanged();
    },

    async close(closeOptions = {}) {
      closing = true;
      const timeoutMs = closeOptions.timeoutMs ?? 10_000;
      if (inFlight > 0) {
        emit({ type: "draining", inFlight });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, timeoutMs);
          drained = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      await Promise.allSettled([...sessions].map((s) => s.close()));
    },
  };
  return gateway;
}
