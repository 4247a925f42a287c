import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { defineTool } from "@toolware/core";

/** A real SDK provider exporting into memory, as the tests of an application would set it up. */
export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return {
    exporter,
    provider,
    tracer: provider.getTracer("toolware-otel-test"),
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    only: (): ReadableSpan => {
      const spans = exporter.getFinishedSpans();
      if (spans.length !== 1) throw new Error(`expected one span, got ${spans.length}`);
      return spans[0] as ReadableSpan;
    },
  };
}

/** The span events as `name` + attributes, in order. */
export function eventsOf(span: ReadableSpan): { name: string; attributes: Record<string, unknown> }[] {
  return span.events.map((e) => ({ name: e.name, attributes: { ...e.attributes } }));
}

export const search = defineTool({
  name: "web_search",
  description: "Searches the web",
  execute: async ({ query }: { query: string }) => {
    if (query === "fail") throw new TypeError("upstream 503 for sk-secret-1");
    return `results for ${query}`;
  },
});
