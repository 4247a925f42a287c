import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { SpanStatusCode } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ToolHooks } from "@toolware/core";
import { otelTracing } from "@toolware/otel";
import { type WatchedPolicyPack, watchPolicy } from "@toolware/policy";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFeatureServer } from "./e2e/upstream-fixture.js";
import {
  createGateway,
  GATEWAY_ATTR,
  type Gateway,
  gatewayAuditContext,
  gatewayLog,
  gatewaySpanAttributes,
} from "./index.js";

const policyText = (extra = "") => `version: 1
name: observed
default: deny
defaultReason: not on the list
rules:
  - name: echo-ok
    match: { tools: [echo] }
    decide: allow
  - name: no-shouting
    match: { tools: [echo], when: 'args.text == "LOUD"' }
    decide: deny
    reason: no shouting
  - name: audit-all
    packs:
      audit: { file: ./audit.jsonl, durability: write }
${extra}`;

function pinoRecords() {
  let text = "";
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return {
    logger: pino({ level: "info" }, stream),
    records: () =>
      text
        .trimEnd()
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe("a gateway's calls traced with otelTracing and logged with pino", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolware-gw-observe-"));
  const policyFile = join(dir, "toolware.policy.yaml");
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const { logger, records } = pinoRecords();
  let upstream: Awaited<ReturnType<typeof startFeatureServer>>;
  let policy: WatchedPolicyPack;
  let gateway: Gateway;
  const client = new Client({ name: "observer", version: "3.1.0" });

  beforeAll(async () => {
    writeFileSync(policyFile, policyText());
    upstream = await startFeatureServer();
    const log = gatewayLog(logger);
    // The test reloads by itself: the watcher's own reloads would number the versions differently.
    policy = await watchPolicy(policyFile, {
      debounceMs: 60_000,
      onEvent: log,
      auditContext: gatewayAuditContext,
    });
    const hooks = new ToolHooks();
    hooks.use(otelTracing({ tracer: provider.getTracer("gw-test"), attributes: gatewaySpanAttributes }));
    hooks.use(policy);
    gateway = createGateway({ upstreams: [{ name: "feat", url: upstream.url }], hooks, policy, onEvent: log });
    await gateway.start();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await gateway.connect(a);
    await client.connect(b);
  }, 60_000);
  afterAll(async () => {
    policy.close();
    await client.close();
    await gateway.close();
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives an allowed and a refused call a span with the session, upstream, client and deciding rule", async () => {
    const ok = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(ok.isError).not.toBe(true);
    const refused = await client.callTool({ name: "echo", arguments: { text: "LOUD" } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("no shouting");
    const [allowed, denied, ...more] = exporter.getFinishedSpans();
    expect(more).toEqual([]);
    expect(allowed?.name).toBe("execute_tool echo");
    expect(allowed?.attributes).toMatchObject({
      [GATEWAY_ATTR.upstream]: "feat",
      [GATEWAY_ATTR.exposedName]: "echo",
      [GATEWAY_ATTR.clientName]: "observer",
      [GATEWAY_ATTR.clientVersion]: "3.1.0",
      [GATEWAY_ATTR.rule]: "echo-ok",
      [GATEWAY_ATTR.effect]: "allow",
      [GATEWAY_ATTR.policyVersion]: 1,
    });
    expect(String(allowed?.attributes[GATEWAY_ATTR.session])).toMatch(/^stdio-/);
    expect(allowed?.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(denied?.name).toBe("execute_tool echo");
    expect(denied?.attributes).toMatchObject({
      [GATEWAY_ATTR.upstream]: "feat",
      [GATEWAY_ATTR.clientName]: "observer",
      [GATEWAY_ATTR.rule]: "no-shouting",
      [GATEWAY_ATTR.effect]: "deny",
      "toolware.status": "blocked",
    });
    expect(denied?.attributes[GATEWAY_ATTR.session]).toBe(allowed?.attributes[GATEWAY_ATTR.session]);
    expect(denied?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("writes each call's audit line with the deciding rule, the client, the upstream and the session", () => {
    const lines = readFileSync(join(dir, "audit.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { tool: string; status: string; context?: Record<string, unknown> });
    const who = { client: "observer", clientVersion: "3.1.0", upstream: "feat", exposedName: "echo" };
    expect(lines).toEqual([
      expect.objectContaining({
        tool: "echo",
        status: "ok",
        context: expect.objectContaining({ rule: "echo-ok", effect: "allow", policyVersion: 1, ...who }),
      }),
      expect.objectContaining({
        tool: "echo",
        status: "blocked",
        context: expect.objectContaining({ rule: "no-shouting", effect: "deny", ...who }),
      }),
    ]);
    expect(lines[0]?.context?.session).toMatch(/^stdio-/);
  });

  it("logs every event as one pino record: session, calls, a refused name, a reload and a refused edit's lines", async () => {
    await client.callTool({ name: "no_such_tool", arguments: {} });
    writeFileSync(policyFile, policyText("  - name: broken\n    decide: maybe\n"));
    expect(await policy.reload()).toBe(false);
    writeFileSync(policyFile, policyText("  - name: slow-ok\n    match: { tools: [slow] }\n    decide: allow\n"));
    expect(await policy.reload()).toBe(true);
    const all = records();
    expect(all.every((r) => typeof r.time === "number" && typeof r.msg === "string")).toBe(true);
    const of = (event: string) => all.filter((r) => r.event === event);
    expect(of("session-opened")[0]).toMatchObject({ level: 30, transport: "stdio" });
    expect(of("call")).toEqual([
      expect.objectContaining({ level: 30, upstream: "feat", tool: "echo", isError: false, msg: "call echo" }),
      expect.objectContaining({ level: 40, upstream: "feat", tool: "echo", isError: true }),
    ]);
    expect(typeof of("call")[0]?.durationMs).toBe("number");
    expect(of("refused")).toEqual([
      expect.objectContaining({ level: 40, tool: "no_such_tool", reason: "unknown or hidden tool" }),
    ]);
    const [failed] = of("policy-reload-error");
    expect(failed).toMatchObject({ level: 50, version: 2, error: { code: "TOOLWARE_POLICY_INVALID" } });
    expect(failed?.problems).toEqual([
      expect.objectContaining({ file: policyFile, line: 17, problem: expect.stringMatching(/decide/) }),
    ]);
    expect(of("policy-reload")).toEqual([expect.objectContaining({ level: 30, version: 3, added: ["slow-ok"] })]);
  });
});

describe("gatewayLog", () => {
  it("refuses a logger without info, warn and error", () => {
    for (const bad of [null, {}, { info() {}, warn() {} }, "console"]) {
      expect(() => gatewayLog(bad as never)).toThrow(/info, warn and error/);
    }
  });

  it("maps upstream errors, closures and draining to levels, and survives a throwing logger", () => {
    const { logger, records } = pinoRecords();
    const log = gatewayLog(logger);
    log({ type: "upstream-error", upstream: "fs", error: Object.assign(new Error("EPIPE"), { secret: "x" }) });
    log({ type: "upstream-closed", upstream: "fs" });
    log({ type: "draining", inFlight: 2 });
    log({ type: "decision", toolName: "t", callId: "c", decision: {} as never });
    log({ type: "reload-error", version: 4, error: new Error("EACCES: policy file") });
    log({ type: "shadow", toolName: "wipe", callId: "c2", rule: "no-wipes", effect: "deny", reason: "no" });
    log({ type: "session-closed", session: "http-1" });
    expect(records()).toEqual([
      expect.objectContaining({ level: 50, event: "upstream-error", upstream: "fs", error: { message: "EPIPE" } }),
      expect.objectContaining({ level: 40, event: "upstream-closed", msg: "upstream fs closed" }),
      expect.objectContaining({ level: 30, event: "draining", inFlight: 2 }),
      expect.objectContaining({
        level: 50,
        event: "policy-reload-error",
        problems: [{ problem: "EACCES: policy file" }],
      }),
      expect.objectContaining({ level: 40, event: "policy-shadow", rule: "no-wipes", toolName: "wipe" }),
      expect.objectContaining({ level: 30, event: "session-closed", session: "http-1", msg: "session closed" }),
    ]);
    expect(JSON.stringify(records())).not.toContain("secret");
    const boom = () => {
      throw new Error("disk full");
    };
    expect(() => gatewayLog({ info: boom, warn: boom, error: boom })({ type: "draining", inFlight: 1 })).not.toThrow();
  });
});

describe("gatewaySpanAttributes", () => {
  it("is empty outside a gateway call without a policy decision", async () => {
    const hooks = new ToolHooks();
    const seen: Record<string, unknown>[] = [];
    hooks.before((ctx) => {
      seen.push(gatewaySpanAttributes(ctx));
    });
    const { defineTool } = await import("@toolware/core");
    await hooks.invoke(defineTool({ name: "t", execute: () => "ok" }), {});
    expect(seen).toEqual([{}]);
  });
});
