// snippet: gateway-observability.ts
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ToolHooks } from "@toolware/core";
import { createGateway, gatewayAuditContext, gatewayCall, gatewayLog, gatewaySpanAttributes } from "@toolware/gateway";
import { otelTracing } from "@toolware/otel";
import { watchPolicy } from "@toolware/policy";
import pino from "pino";

// An application registers its OpenTelemetry SDK (an OTLP exporter instead of this in-memory one).
trace.setGlobalTracerProvider(
  new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] }),
);
const log = gatewayLog(pino(pino.destination(2))); // stderr: over stdio, stdout is the MCP channel

const policy = await watchPolicy("toolware.policy.yaml", {
  caller: (ctx) => gatewayCall(ctx)?.client?.name, // for `callers` matches and `key: caller` rate limits
  upstream: (ctx) => gatewayCall(ctx)?.upstream, // for `key: upstream` rate limits and `scope: upstream` loop guards
  auditContext: gatewayAuditContext, // client, upstream and session in every audit line, beside the rule
  onEvent: log, // reloads, refused edits with their lines, shadow decisions
});
const hooks = new ToolHooks();
hooks.use(otelTracing({ attributes: gatewaySpanAttributes })); // one span per call, with the gateway's attributes
hooks.use(policy);
const gateway = createGateway({
  upstreams: [{ name: "fs", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] }],
  hooks,
  policy,
  onEvent: log, // sessions, calls, refused names, upstream errors, draining
});
await gateway.start();
