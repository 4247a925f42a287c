// snippet: readme-otel-1.ts
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { defineTool, ToolHooks } from "@toolware/core";
import { otelTracing } from "@toolware/otel";

const exporter = new InMemorySpanExporter(); // an OTLP exporter in production
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

const hooks = new ToolHooks();
hooks.use(otelTracing());
const search = defineTool({ name: "web_search", description: "Searches the web", execute: () => "results" });
await hooks.invoke(search, { query: "toolware" });

const [span] = exporter.getFinishedSpans();
console.log(span?.name, span?.attributes["gen_ai.operation.name"]); // execute_tool web_search execute_tool
