import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ToolHooks } from "@toolware/core";
import { ATTR, otelTracing } from "@toolware/otel";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "./load.js";
import { tool } from "./test-fixtures.js";
import { watchPolicy } from "./watch.js";

const policyText = (audit: string) => `version: 1
default: allow
rules:
  - name: no-rm
    match: { tools: [rm] }
    decide: deny
    reason: nobody removes files
  - name: audit-everything
    packs:
      audit: { file: ${audit} }
`;

function dir(): string {
  return mkdtempSync(join(tmpdir(), "toolware-policy-obs-"));
}

describe("the deciding rule reaches the audit line and the OTel span", () => {
  it("an audit pack attached by the file records the denying rule's hook", async () => {
    const d = dir();
    writeFileSync(join(d, "p.yaml"), policyText("audit.jsonl"));
    const policy = await loadPolicy(join(d, "p.yaml"));
    const hooks = new ToolHooks();
    hooks.use(policy);
    await hooks.invoke(tool("rm"), {});
    await hooks.invoke(tool("ls"), {});
    const lines = readFileSync(join(d, "audit.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(JSON.stringify(lines[0])).toContain("policy:no-rm");
    expect(JSON.stringify(lines[0])).toContain("nobody removes files");
  });

  it("a watched policy's audit pack records denied calls too", async () => {
    const d = dir();
    writeFileSync(join(d, "p.yaml"), policyText("audit.jsonl"));
    const policy = await watchPolicy(join(d, "p.yaml"));
    policy.close();
    const hooks = new ToolHooks();
    hooks.use(policy);
    await hooks.invoke(tool("rm"), {});
    const line = readFileSync(join(d, "audit.jsonl"), "utf8").trim();
    expect(line).toContain("nobody removes files");
  });

  it("otelTracing's span names the rule (the hook policy:<rule>) without otel knowing about policies", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const d = dir();
    writeFileSync(join(d, "p.yaml"), policyText("audit.jsonl"));
    const hooks = new ToolHooks();
    hooks.use(otelTracing({ tracer: provider.getTracer("t") }));
    hooks.use(await loadPolicy(join(d, "p.yaml")));
    await hooks.invoke(tool("rm"), {});
    const span = exporter.getFinishedSpans()[0];
    const blocked = span?.events.find((e) => e.attributes?.[ATTR.hookName] === "policy:no-rm");
    expect(blocked?.attributes?.[ATTR.hookReason]).toBe("nobody removes files");
  });
});
