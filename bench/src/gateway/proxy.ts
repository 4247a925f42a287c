// One proxy process of the gateway suite: `node proxy.js <gateway|bare> <stdio|http> <stdio|upstream URL>`.
// `gateway` is `createGateway` with a 50-rule policy file watched as `toolware gateway` does; `bare` is the floor: the
// least a pass-through proxy made with the same SDK does (a Server per client session, its own Client to the upstream,
// tools/list and tools/call forwarded, no policy). Both start the same upstream (`upstream.js`). SIGUSR2 makes the
// process print its CPU time and memory on stderr (after two full GCs when BENCH_PROXY_GC=1 and --expose-gc).
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolHooks } from "@toolware/core";
import { createGateway, gatewayCall, gatewayElicitation, type UpstreamConfig } from "@toolware/gateway";
import { watchPolicy } from "@toolware/policy";
import { fiftyRulePolicy } from "../policy-yaml.js";
import { LISTENING_MARK, STATS_MARK } from "./marks.js";

const [mode, serve, upstreamSpec] = process.argv.slice(2) as [string, string, string];
const upstreamJs = join(dirname(fileURLToPath(import.meta.url)), "upstream.js");
const upstream: UpstreamConfig = upstreamSpec.startsWith("http")
  ? { name: "echo", url: upstreamSpec }
  : { name: "echo", command: process.execPath, args: [upstreamJs, "stdio"] };

const gc = process.env.BENCH_PROXY_GC === "1" ? (globalThis as { gc?: () => void }).gc : undefined;
process.on("SIGUSR2", () => {
  gc?.();
  gc?.();
  const cpu = process.cpuUsage();
  const { heapUsed, rss } = process.memoryUsage();
  process.stderr.write(`${STATS_MARK}${JSON.stringify({ cpuUs: cpu.user + cpu.system, heapUsed, rss })}\n`);
});

function upstreamTransport(): Transport {
  return "url" in upstream
    ? new StreamableHTTPClientTransport(new URL(upstream.url))
    : new StdioClientTransport({
        command: upstream.command,
        args: [...(upstream.args ?? [])],
        env: getDefaultEnvironment(),
        stderr: "inherit",
      });
}

// The floor: one Server per client session, its own upstream Client, two handlers that forward.
function bareSession(): Server {
  const server = new Server({ name: "bare-proxy", version: "1.0.0" }, { capabilities: { tools: {} } });
  let client: Promise<Client> | undefined;
  const up = (): Promise<Client> => {
    client ??= (async () => {
      const c = new Client({ name: "bare-proxy", version: "1.0.0" });
      await c.connect(upstreamTransport());
      return c;
    })();
    return client;
  };
  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) =>
    (await up()).listTools(request.params, { signal: extra.signal }),
  );
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
    (await up()).callTool(request.params, undefined, { signal: extra.signal }),
  );
  server.oninitialized = () => void up();
  server.onclose = () => void client?.then((c) => c.close());
  return server;
}

function listening(url: string): void {
  process.stderr.write(`${LISTENING_MARK}${url}\n`);
}

if (mode === "bare") {
  if (serve === "stdio") {
    process.stdin.once("end", () => process.exit(0));
    await bareSession().connect(new StdioServerTransport());
  } else {
    const sessions = new Map<string, StreamableHTTPServerTransport>();
    const http = createServer((req, res) => {
      const sid = req.headers["mcp-session-id"];
      const known = typeof sid === "string" ? sessions.get(sid) : undefined;
      if (known !== undefined) return void known.handleRequest(req, res);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => void sessions.set(id, transport),
      });
      void bareSession()
        .connect(transport)
        .then(() => transport.handleRequest(req, res));
    });
    http.listen(0, "127.0.0.1", () => listening(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`));
  }
} else if (mode === "gateway") {
  // As `toolware gateway --policy` builds it: a watched policy file, elicitation for approvals.
  const policyFile = join(mkdtempSync(join(tmpdir(), "toolware-bench-gateway-")), "toolware.policy.yaml");
  writeFileSync(policyFile, fiftyRulePolicy({ name: "echo-allowed", match: "{ tools: [echo] }" }));
  const policy = await watchPolicy(policyFile, { caller: (ctx) => gatewayCall(ctx)?.client?.name });
  const hooks = new ToolHooks({ humanInput: gatewayElicitation() });
  hooks.use(policy);
  const gateway = createGateway({ upstreams: [upstream], hooks, policy });
  await gateway.start();
  // The client gone, the process ends (and writes a --cpu-prof profile when asked for one).
  if (serve === "stdio") process.stdin.once("end", () => process.exit(0));
  if (serve === "stdio") await gateway.connect(new StdioServerTransport());
  else listening((await gateway.listen({ port: 0 })).url);
} else {
  throw new TypeError(`proxy: unknown mode ${JSON.stringify(mode)} (expected gateway or bare)`);
}
