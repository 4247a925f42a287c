import { resolve } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ToolHooks, ToolwareError } from "@toolware/core";
import { createGateway, type GatewayEvent, gatewayAuditContext, gatewayCall } from "@toolware/gateway";
import { formatIssue, type PolicyEvent, PolicyLoadError, watchPolicy } from "@toolware/policy";
import { defineCommand, EXIT, usageError } from "../kit.js";
import { listenAddress, readConfig } from "./config.js";
import { gatewayHumanInput, INBOX_FLAGS } from "./inbox.js";
import { jsonLogFor } from "./log.js";
import { OTEL_FLAG, otelSettings, startGatewayTracing } from "./otel.js";
import { flagUrl, openGatewayStores, storeSettings } from "./store.js";

function reloadProblem(event: PolicyEvent, policyFile: string, inForce: number): string | undefined {
  if (event.type !== "reload-error") return undefined;
  const error = event.error;
  const lines = error instanceof PolicyLoadError ? error.issues.map(formatIssue) : [`${policyFile}: ${String(error)}`];
  return `toolware gateway: the policy edit is refused, the last good policy (version ${inForce}) stays in force:\n${lines.join("\n")}\n`;
}

function describe(event: GatewayEvent): string | undefined {
  if (event.type === "upstream-closed") return `toolware gateway: upstream ${event.upstream} closed\n`;
  if (event.type === "upstream-error") return `toolware gateway: upstream ${event.upstream}: ${String(event.error)}\n`;
  if (event.type === "upstream-restarting")
    return `toolware gateway: upstream ${event.upstream} ${event.reason}; restart ${event.attempt} in ${event.delayMs} ms\n`;
  if (event.type === "upstream-restarted") return `toolware gateway: upstream ${event.upstream} restarted\n`;
  if (event.type === "upstream-down") return `toolware gateway: upstream ${event.upstream} is down: ${event.reason}\n`;
  if (event.type === "draining") return `toolware gateway: draining ${event.inFlight} call(s) in flight\n`;
  return undefined;
}

/** `toolware gateway --policy FILE -- <command> [args…]`: an MCP gateway in front of one or more servers. */
export const gateway = defineCommand({
  name: "gateway",
  summary: "run an MCP gateway: a policy in front of any MCP server",
  description: [
    "Runs an MCP gateway in front of the server started by <command> (and the upstreams of --config): clients",
    "connect to the gateway as to the server, over stdio (the default) or Streamable HTTP (--listen), and every",
    "tools/call runs through the policy. The policy reloads when its file changes and on SIGHUP; a broken edit is",
    "refused with its line on stderr and the last good policy stays. SIGTERM or SIGINT drains the calls in flight.",
    "In stdio mode stdout is the MCP channel: messages go to stderr.",
  ].join("\n"),
  args: ["command..."],
  options: {
    policy: { type: "string", value: "FILE", description: "the policy file (required)" },
    listen: {
      type: "string",
      value: "HOST:PORT",
      description: "serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio",
    },
    shadow: { type: "boolean", description: "decide and report every call, block nothing (a policy rollout)" },
    config: { type: "string", value: "FILE", description: "a JSON file: more upstreams, name, hideDenied, …" },
    store: {
      type: "string",
      value: "URL",
      description: "redis://HOST:PORT[/DB]: rate limits, loop guards, circuits, caches shared with other instances",
    },
    log: {
      type: "string",
      value: "FORMAT",
      description: "text (default): lines for people; json: one pino JSON line per event, on stderr",
    },
    ...INBOX_FLAGS,
    ...OTEL_FLAG,
  },
  failure: "the policy or the config cannot be read, or an upstream cannot be started",
  async run({ positionals, options }, io) {
    if (options.policy === undefined) throw usageError("--policy FILE is required");
    const listen = options.listen === undefined ? undefined : listenAddress(options.listen);
    const storeFlag = options.store === undefined ? undefined : flagUrl(options.store);
    const json = jsonLogFor(options.log, io);
    const otel = otelSettings(options.otel, process.env);
    const config = readConfig(io.cwd, options.config);
    const token = config.bearerTokenEnv === undefined ? undefined : process.env[config.bearerTokenEnv];
    if (config.bearerTokenEnv !== undefined && (token === undefined || token === "")) {
      throw new ToolwareError("TOOLWARE_GATEWAY_CONFIG", `gateway: $${config.bearerTokenEnv} is not set`);
    }
    const policyFile = resolve(io.cwd, options.policy);
    const [command, ...args] = positionals as [string, ...string[]];
    const shared = await openGatewayStores(storeSettings(storeFlag, config), io.err);
    const approvals = await gatewayHumanInput(options, config.inboxKeysEnv, io.cwd, process.env).catch(
      async (error: unknown) => {
        await shared.close();
        throw error;
      },
    );
    // A reload-error's version is the one tried; the message names the version still in force.
    let inForce = 1;
    const policy = await watchPolicy(policyFile, {
      ...(shared.stores === undefined ? {} : { stores: shared.stores }),
      connect: shared.connect,
      ...(options.shadow ? { mode: "shadow" as const } : {}),
      caller: (ctx) => gatewayCall(ctx)?.client?.name,
      upstream: (ctx) => gatewayCall(ctx)?.upstream,
      auditContext: gatewayAuditContext,
      onEvent: (event) => {
        if (event.type === "reload") inForce = event.version;
        if (json !== undefined) return json.event(event);
        const problem = reloadProblem(event, options.policy as string, inForce);
        if (problem !== undefined) io.err(problem);
        if (event.type === "reload") io.err(`toolware gateway: policy version ${event.version} in force\n`);
        if (event.type === "shadow")
          io.err(`toolware gateway: shadow ${event.effect} ${event.toolName} (rule ${event.rule})\n`);
      },
    }).catch(async (error: unknown) => {
      await Promise.allSettled([shared.close(), approvals.close()]);
      throw error;
    });
    const hooks = new ToolHooks({ humanInput: approvals.humanInput });
    hooks.use(policy);
    const tracing = await startGatewayTracing(otel, hooks);
    const gw = createGateway({
      upstreams: [{ name: config.name ?? "server", command, args }, ...(config.upstreams ?? [])],
      hooks,
      policy,
      ...(config.hideDenied === undefined ? {} : { hideDenied: config.hideDenied }),
      ...(config.separator === undefined ? {} : { separator: config.separator }),
      ...(config.restart === undefined ? {} : { restart: config.restart }),
      onEvent: (event) => {
        if (json !== undefined) return json.event(event);
        const line = describe(event);
        if (line !== undefined) io.err(line);
      },
    });
    const onHup = () => {
      void policy.reload().then((ok) => {
        const what = ok ? "the policy file is read again" : "the policy file is refused";
        if (json === undefined) io.err(`toolware gateway: SIGHUP: ${what}\n`);
        else json.note({ event: "sighup", reloaded: ok }, `SIGHUP: ${what}`);
        gw.toolsChanged();
      });
    };
    process.on("SIGHUP", onHup);
    const off = policy.on((event) => event.type === "reload" && gw.toolsChanged());
    try {
      await gw.start();
      const stopped = new Promise<void>((done) => {
        if (io.signal?.aborted) done();
        io.signal?.addEventListener("abort", () => done(), { once: true });
      });
      if (listen === undefined) {
        const session = await gw.connect(new StdioServerTransport());
        // The client closing stdin ends the session, and the gateway with it.
        await Promise.race([stopped, new Promise<void>((done) => process.stdin.once("end", () => done()))]);
        void session;
      } else {
        const listener = await gw.listen({ ...listen, ...(token === undefined ? {} : { bearerToken: token }) });
        if (json === undefined) io.err(`toolware gateway: listening on ${listener.url}\n`);
        else json.note({ event: "listening", url: listener.url }, `listening on ${listener.url}`);
        await stopped;
        await gw.close();
        await listener.close();
        return EXIT.ok;
      }
      await gw.close();
      return EXIT.ok;
    } finally {
      await tracing?.close();
      off();
      process.off("SIGHUP", onHup);
      policy.close();
      await shared.close();
      await approvals.close();
    }
  },
});
