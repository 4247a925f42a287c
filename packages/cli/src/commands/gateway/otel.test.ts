// `toolware gateway --otel` end to end: the real command over stdio in front of the real server-filesystem, its spans
// sent over OTLP/HTTP (JSON) to a collector made here on loopback.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { defineTool, ToolHooks } from "@toolware/core";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { inProcess } from "../test-fixtures.js";
import { otelSettings, startGatewayTracing } from "./otel.js";
import { BIN as bin, FS_BIN as fsBin, TSX_LOADER as loader, ROOT as root } from "./test-fixtures.js";

const POLICY = `version: 1
name: traced
default: allow
rules:
  - name: no-moves
    match: { tools: [move_file] }
    decide: deny
    reason: moving files is not allowed
  - name: reads
    match: { tools: [read_text_file] }
    decide: allow
`;

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean };
type KeyValue = { key: string; value: AnyValue };
interface OtlpSpan {
  name: string;
  attributes: KeyValue[];
  status?: { code?: number };
}
interface Export {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    resourceSpans: {
      resource: { attributes: KeyValue[] };
      scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
    }[];
  };
}

const attrs = (list: KeyValue[]) =>
  Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue]));

/** An OTLP/HTTP collector on loopback: it keeps every JSON export it receives. */
async function collector() {
  const exports: Export[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      exports.push({ path: req.url ?? "", headers: req.headers, body: JSON.parse(body) as Export["body"] });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const spans = () =>
    exports.flatMap((e) =>
      e.body.resourceSpans.flatMap((r) =>
        r.scopeSpans.flatMap((s) =>
          s.spans.map((span) => ({
            ...span,
            attrs: attrs(span.attributes),
            resource: attrs(r.resource.attributes),
            scope: s.scope.name,
          })),
        ),
      ),
    );
  return { base, exports, spans, close: () => new Promise((done) => server.close(done)) };
}

const dir = realpathSync(mkdtempSync(join(tmpdir(), "toolware-cli-gw-otel-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());
mkdirSync(join(dir, "files"));
writeFileSync(join(dir, "files", "a.txt"), "hello\n");
writeFileSync(join(dir, "policy.yaml"), POLICY);
writeFileSync(join(dir, "gateway.json"), JSON.stringify({ name: "fs", hideDenied: false }));

async function gateway(otelEnv: Record<string, string>) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("OTEL_")) env[k] = v;
  const args = ["--conditions", "@toolware/source", "--import", loader, bin, "gateway", "--otel"];
  args.push("--policy", join(dir, "policy.yaml"), "--config", join(dir, "gateway.json"), "--");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...args, process.execPath, fsBin, join(dir, "files")],
    cwd: root,
    env: { ...env, ...otelEnv },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "otel-e2e", version: "4.5.6" });
  const closed = new Promise<void>((done) => (client.onclose = done));
  await client.connect(transport);
  return { client, transport, closed, stderr: () => stderr };
}

const gone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

describe("toolware gateway --otel", () => {
  it("exports a span per call with the gateway's attributes and the deciding rule, flushed on SIGTERM", async () => {
    const otlp = await collector();
    try {
      const gw = await gateway({
        OTEL_EXPORTER_OTLP_ENDPOINT: `${otlp.base}/`,
        OTEL_EXPORTER_OTLP_HEADERS: "x-tenant=blue",
        // No timed export during the test: what arrives is what the exit flushed.
        OTEL_BSP_SCHEDULE_DELAY: "60000",
      });
      const moved = await gw.client.callTool({ name: "move_file", arguments: { source: "a", destination: "b" } });
      expect(moved.isError).toBe(true);
      const read = await gw.client.callTool({
        name: "read_text_file",
        arguments: { path: join(dir, "files", "a.txt") },
      });
      expect(read.isError).not.toBe(true);
      // The batch is not due yet: the spans leave on the way out.
      expect(otlp.spans()).toEqual([]);
      const pid = gw.transport.pid as number;
      process.kill(pid, "SIGTERM");
      await gw.closed;
      await expect.poll(() => gone(pid), { timeout: 10_000 }).toBe(true);
      expect(gw.stderr()).not.toMatch(/error/i);
      expect(otlp.exports.every((e) => e.path === "/v1/traces" && e.headers["x-tenant"] === "blue")).toBe(true);
      const spans = otlp.spans();
      expect(spans.map((s) => s.name)).toEqual(["execute_tool move_file", "execute_tool read_text_file"]);
      const [refused, allowed] = spans;
      const common = {
        "gen_ai.operation.name": "execute_tool",
        "toolware.gateway.upstream": "fs",
        "toolware.gateway.client.name": "otel-e2e",
        "toolware.gateway.client.version": "4.5.6",
        "toolware.policy.version": expect.anything(),
        "toolware.gateway.session": expect.any(String),
      };
      expect(refused?.attrs).toMatchObject({
        ...common,
        "gen_ai.tool.name": "move_file",
        "toolware.gateway.exposed_name": "move_file",
        "toolware.policy.rule": "no-moves",
        "toolware.policy.effect": "deny",
      });
      expect(refused?.status?.code).toBe(2); // ERROR: the call was blocked
      expect(allowed?.attrs).toMatchObject({
        ...common,
        "gen_ai.tool.name": "read_text_file",
        "toolware.policy.rule": "reads",
        "toolware.policy.effect": "allow",
      });
      expect(allowed?.status?.code).not.toBe(2);
      expect(refused?.resource["service.name"]).toBe("toolware-gateway");
      expect(refused?.scope).toBe("@toolware/otel");
    } finally {
      await otlp.close();
    }
  }, 60_000);

  it("flushes when the client closes stdin; the traces endpoint and OTEL_SERVICE_NAME are taken as given", async () => {
    const otlp = await collector();
    try {
      const gw = await gateway({
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp.base}/collect`,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "edge-gw",
      });
      const read = await gw.client.callTool({
        name: "read_text_file",
        arguments: { path: join(dir, "files", "a.txt") },
      });
      expect(read.isError).not.toBe(true);
      const pid = gw.transport.pid as number;
      await gw.client.close();
      await expect.poll(() => gone(pid), { timeout: 10_000 }).toBe(true);
      expect(otlp.exports.map((e) => e.path)).toEqual(["/collect"]);
      expect(otlp.spans()).toEqual([
        expect.objectContaining({
          name: "execute_tool read_text_file",
          resource: expect.objectContaining({ "service.name": "edge-gw" }),
          attrs: expect.objectContaining({ "toolware.policy.rule": "reads", "toolware.gateway.upstream": "fs" }),
        }),
      ]);
    } finally {
      await otlp.close();
    }
  }, 60_000);

  it("in this process: spans go out on close, and close takes the tracing hook away", async () => {
    const otlp = await collector();
    try {
      vi.stubEnv("OTEL_BSP_SCHEDULE_DELAY", "60000");
      const hooks = new ToolHooks();
      const echo = defineTool({ name: "echo", execute: async ({ text }: { text: string }) => text });
      expect(await startGatewayTracing(undefined, hooks)).toBeUndefined();
      const tracing = await startGatewayTracing({ url: `${otlp.base}/v1/traces` }, hooks);
      expect(await hooks.invoke(echo, { text: "one" })).toMatchObject({ status: "ok", result: "one" });
      expect(otlp.spans()).toEqual([]);
      await tracing?.close();
      expect(otlp.spans().map((s) => [s.name, s.resource["service.name"]])).toEqual([
        ["execute_tool echo", "toolware-gateway"],
      ]);
      expect(await hooks.invoke(echo, { text: "two" })).toMatchObject({ status: "ok", result: "two" });
      await tracing?.close(); // twice is harmless
      expect(otlp.spans()).toHaveLength(1);
    } finally {
      await otlp.close();
    }
  });

  it("without an endpoint sends to the OTLP default, http://localhost:4318/v1/traces", () => {
    expect(otelSettings(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://x" })).toBeUndefined();
    expect(otelSettings(true, {})).toEqual({ url: "http://localhost:4318/v1/traces" });
    expect(otelSettings(true, { OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toEqual({
      url: "http://localhost:4318/v1/traces",
    });
    expect(otelSettings(true, { OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example:4318/base//" })).toEqual({
      url: "https://otel.example:4318/base/v1/traces",
    });
    // The signal's own protocol wins over the general one.
    const env = { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" };
    expect(otelSettings(true, env)).toEqual({ url: "http://localhost:4318/v1/traces" });
  });

  it.each([
    ["OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "must be http/json, got grpc"],
    ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf", "must be http/json, got http/protobuf"],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", "localhost 4318", "is not a URL"],
    ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "ftp://127.0.0.1/v1/traces", "must be an http:// or https:// URL"],
  ])("%s=%s is a usage error (exit 2) before anything starts", async (name, value, message) => {
    vi.stubEnv(name, value);
    const run = await inProcess(["gateway", "--otel", "--policy", "missing.yaml", "--", "node"], dir);
    expect(run.code).toBe(2);
    expect(run.err).toContain(`$${name}`);
    expect(run.err).toContain(message);
  });

  it("is listed in --help", async () => {
    const help = await inProcess(["gateway", "--help"], dir);
    expect(help.out).toMatch(/--otel\s+export a span per call over OTLP\/HTTP/);
  });
});
