// snippet: observability-1.ts
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { otelTracing } from "@toolware/otel";
import { createRedactor } from "@toolware/packs/redact";

// What the OpenTelemetry Node SDK sets up in an application (with an OTLP exporter instead of this in-memory one).
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

const hooks = new ToolHooks();
hooks.use(otelTracing({ captureArguments: true, redact: createRedactor().text }));
hooks.before(function guard(ctx) {
  if (ctx.tool.destructive) ctx.block("destructive tools are disabled");
});

const search = defineTool({
  name: "web_search",
  description: "Searches the web",
  execute: ({ query }: { query: string; apiKey: string }) => `results for ${query}`,
});
const deleteFile = defineTool({ name: "delete_file", destructive: true, execute: () => "deleted" });
const researcher = new Agent({ role: "researcher" });

// An agent framework's span (the AI SDK's or LangChain's, when they trace) is active around the tool calls.
await trace.getTracer("my-agent").startActiveSpan("invoke_agent researcher", async (step) => {
  await hooks.invoke(search, { query: "toolware", apiKey: "sk-proj-abc123def456ghi789jkl" }, { agent: researcher });
  await hooks.invoke(deleteFile, { path: "notes.md" }, { agent: researcher });
  step.end();
});

for (const span of exporter.getFinishedSpans()) {
  const parent = span.parentSpanContext === undefined ? "(root)" : "child of the agent span";
  console.log(
    span.name,
    parent,
    span.status,
    span.attributes,
    span.events.map((e) => [e.name, e.attributes]),
  );
}
// execute_tool web_search child of the agent span { code: 0 } {
//   'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'web_search', 'gen_ai.tool.call.id': 'k3x9q1-00',
//   'gen_ai.tool.type': 'function', 'toolware.call.id': 'k3x9q1-00', 'gen_ai.tool.description': 'Searches the web',
//   'toolware.agent.role': 'researcher', 'toolware.status': 'ok', 'toolware.tool.ran': true,
//   'gen_ai.tool.call.arguments': '{"query":"toolware","apiKey":"[REDACTED]"}' } []
// execute_tool delete_file child of the agent span { code: 2, message: 'destructive tools are disabled' } {
//   …, 'toolware.status': 'blocked', 'toolware.tool.ran': false, 'error.type': 'blocked', … } [
//   [ 'toolware.hook.blocked', { 'toolware.hook.name': 'guard', 'toolware.hook.layer': 'global',
//     'toolware.hook.kind': 'before', 'toolware.hook.phase': 'before',
//     'toolware.hook.reason': 'destructive tools are disabled' } ] ]
// invoke_agent researcher (root) { code: 0 } {} []
// (call ids vary from run to run)
