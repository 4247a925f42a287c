// `toolware gateway --otel`: a tracer provider exporting the gateway's spans over OTLP/HTTP (JSON), configured by
// the standard OTEL_* environment. The OTLP packages load only when the flag is given.
import type { ToolHooks } from "@toolware/core";
import { usageError } from "../kit.js";

/** The `--otel` flag of `toolware gateway`. */
export const OTEL_FLAG = {
  otel: {
    type: "boolean",
    description: "export a span per call over OTLP/HTTP to $OTEL_EXPORTER_OTLP_ENDPOINT (default localhost:4318)",
  },
} as const;

/** The OTLP default when no endpoint is set in the environment (the OpenTelemetry specification's). */
export const DEFAULT_OTLP_ENDPOINT = "http://localhost:4318";
/** `service.name` when `OTEL_SERVICE_NAME` (or `service.name` in `OTEL_RESOURCE_ATTRIBUTES`) is not set. */
export const DEFAULT_SERVICE_NAME = "toolware-gateway";

/** Where and as what the spans go, read from the environment before anything starts. */
export interface OtelSettings {
  /** The traces URL, `…/v1/traces` unless `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` names one whole. */
  readonly url: string;
}

type Env = Readonly<Record<string, string | undefined>>;

function set(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

function httpUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`--otel: $${name} is not a URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw usageError(`--otel: $${name} must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * Reads `--otel`'s settings from `env`, or undefined without the flag. A URL that is not http(s), or a protocol
 * other than `http/json` (this exporter sends JSON only, so grpc or protobuf would reach nobody), is a usage error.
 */
export function otelSettings(enabled: boolean | undefined, env: Env): OtelSettings | undefined {
  if (enabled !== true) return undefined;
  for (const name of ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"]) {
    const protocol = set(env, name);
    if (protocol !== undefined && protocol !== "http/json") {
      throw usageError(`--otel sends OTLP over HTTP as JSON: $${name} must be http/json, got ${protocol}`);
    }
    if (protocol !== undefined) break;
  }
  const traces = set(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  if (traces !== undefined) return { url: httpUrl(traces, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") };
  const base = set(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  const root = base === undefined ? DEFAULT_OTLP_ENDPOINT : httpUrl(base, "OTEL_EXPORTER_OTLP_ENDPOINT");
  return { url: `${root.replace(/\/+$/, "")}/v1/traces` };
}

/** A started tracer provider: {@link GatewayTracing.close} exports what is left and stops it. Never rejects. */
export interface GatewayTracing {
  close(): Promise<void>;
}

/**
 * Registers a tracer provider exporting to `settings.url` (headers from `OTEL_EXPORTER_OTLP_HEADERS`, the resource
 * from `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES`) and adds `otelTracing` with the gateway's attributes.
 */
export async function startGatewayTracing(settings: OtelSettings | undefined, hooks: ToolHooks) {
  if (settings === undefined) return undefined;
  const [{ trace }, { OTLPTraceExporter }, resources, sdk, otel, { gatewaySpanAttributes }] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-base"),
    import("@toolware/otel"),
    import("@toolware/gateway"),
  ]);
  // The environment's resource goes last, so OTEL_SERVICE_NAME overrides the gateway's default name.
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": DEFAULT_SERVICE_NAME }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const exporter = new OTLPTraceExporter({ url: settings.url });
  const provider = new sdk.BasicTracerProvider({ resource, spanProcessors: [new sdk.BatchSpanProcessor(exporter)] });
  const registered = trace.setGlobalTracerProvider(provider);
  const tracer = provider.getTracer(otel.INSTRUMENTATION_NAME, otel.INSTRUMENTATION_VERSION);
  const unuse = hooks.use(otel.otelTracing({ tracer, attributes: gatewaySpanAttributes }));
  const tracing: GatewayTracing = {
    async close() {
      unuse();
      // Shutting down flushes the batch: the spans of the last calls leave before the process does.
      await provider.shutdown().catch(() => undefined);
      if (registered) trace.disable();
    },
  };
  return tracing;
}
