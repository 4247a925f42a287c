import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ToolHooks } from "@toolware/core";
import { ATTR, otelTracing } from "@toolware/otel";
import { describe, expect, it } from "vitest";
import { tool } from "./test-fixtures.js";
import { watchPolicy } from "./watch.js";

const rules = (extra = "") => `version: 1
default: allow
rules:
  - name: no-rm
    match: { tools: [rm] }
    decide: deny
    reason: nobody removes files
${extra}  - name: audit-everything
    packs:
      audit: { file: audit.jsonl }
`;
const addedRule = `  - name: no-dd
    match: { tools: [dd] }
    decide: deny
`;

describe("a watched policy names the deciding rule, not its one dispatching hook", () => {
  it("in the trace, the audit line and the OTel span, also for a rule a reload added", async () => {
    const d = mkdtempSync(join(tmpdir(), "toolware-policy-names-"));
    const file = join(d, "p.yaml");
    writeFileSync(file, rules());
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const policy = await watchPolicy(file);
    policy.close();
    const hooks = new ToolHooks();
    hooks.use(otelTracing({ tracer: provider.getTracer("t") }));
    hooks.use(policy);

    const denied = await hooks.invoke(tool("rm"), {});
    const entry = denied.trace.find((e) => e.action === "blocked");
    expect(entry).toMatchObject({ hook: "policy:no-rm", reason: "nobody removes files" });
    expect(denied.trace.map((e) => e.hook)).not.toContain("policy:decide");
    const allowed = await hooks.invoke(tool("ls"), {});
    expect(allowed.trace.map((e) => e.hook)).toContain("policy:default");

    await writeFile(file, rules(addedRule));
    expect(await policy.reload()).toBe(true);
    const byNewRule = await hooks.invoke(tool("dd"), {});
    expect(byNewRule.trace.find((e) => e.action === "blocked")?.hook).toBe("policy:no-dd");

    const lines = readFileSync(join(d, "audit.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('"policy:no-rm"');
    expect(lines[2]).toContain('"policy:no-dd"');
    const spans = exporter.getFinishedSpans();
    const named = (i: number) =>
      spans[i]?.events.find((e) => e.attributes?.[ATTR.hookName] === (i === 0 ? "policy:no-rm" : "policy:no-dd"));
    expect(named(0)?.attributes?.[ATTR.hookReason]).toBe("nobody removes files");
    expect(named(2)).toBeDefined();
    // The registered hooks are what explain() lists: the one dispatching hook.
    expect(hooks.explain({ toolName: "rm" }).map((h) => h.name)).toContain("policy:decide");
  });
});
