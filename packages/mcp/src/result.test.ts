import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { defineTool, ToolHooks } from "@toolware/core";
import { redact } from "@toolware/packs/redact";
import { describe, expect, it } from "vitest";
import { outcomeToCallToolResult, textOfResult } from "./index.js";

const SECRET = "sk-live-1234567890abcdef";

// A tool whose result is an MCP result, shown to hooks as textOfResult shows it.
async function mapped(raw: CallToolResult | Record<string, unknown>, change?: (text: string) => string) {
  const hooks = new ToolHooks();
  hooks.use(redact());
  if (change !== undefined) {
    hooks.after((ctx) => {
      ctx.toolResult = change(ctx.toolResult ?? "");
    });
  }
  const tool = defineTool({
    name: "t",
    ...("content" in raw ? { formatResult: (r: unknown) => textOfResult(r as CallToolResult) } : {}),
    execute: () => raw,
  });
  return outcomeToCallToolResult(await hooks.invoke(tool, {}), tool);
}

describe("outcomeToCallToolResult: a structured copy follows the hooks' change only where it can be traced", () => {
  it("a result no hook changed is returned as it was", async () => {
    const raw = { content: [{ type: "text" as const, text: "fine" }], structuredContent: { a: 1 } };
    expect(await mapped(raw)).toBe(raw);
  });

  it("nested arrays, numbers, booleans and null survive when the text still shows them", async () => {
    const structured = { rows: [{ id: 7, ok: true, note: null }], body: `token ${SECRET}` };
    const text = `token ${SECRET}`;
    const result = await mapped(
      { content: [{ type: "text", text }], structuredContent: structured },
      (t) => `${t} 7 true`,
    );
    expect(result.structuredContent).toEqual({
      rows: [{ id: 7, ok: true, note: null }],
      body: "token [REDACTED] 7 true",
    });
  });

  it("a value the changed text no longer shows drops the structured copy", async () => {
    for (const structured of [{ n: 41 }, { flag: false }, { list: ["gone"] }, { deep: { s: SECRET } }]) {
      const result = await mapped({ content: [{ type: "text", text: `x ${SECRET}` }], structuredContent: structured });
      expect(result.structuredContent, JSON.stringify(structured)).toBeUndefined();
      expect(JSON.stringify(result)).not.toContain(SECRET);
    }
  });

  it("a changed JSON text that is no longer an object drops it; other parts are named, not inlined", async () => {
    const structured = { key: SECRET };
    const result = await mapped(
      { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured },
      () => "[1,2]",
    );
    expect(result.structuredContent).toBeUndefined();
    const parts = await mapped({
      content: [
        { type: "image", data: "AA==", mimeType: "image/png" },
        { type: "resource_link", uri: "file:///a", name: "a" },
        { type: "resource", resource: { uri: "file:///b", text: `b ${SECRET}` } },
        { type: "resource", resource: { uri: "file:///c", blob: "AA==" } },
      ],
    });
    expect(parts.content).toEqual([
      { type: "text", text: "[image image/png]\n[resource file:///a]\nb [REDACTED]\n[resource file:///c]" },
    ]);
  });

  it("a plain-object result redacted by redact() is structured, redacted the same way", async () => {
    const result = await mapped({ user: "bob", password: 1234, tags: ["a"] });
    expect(result.structuredContent).toEqual({ user: "bob", password: "[REDACTED]", tags: ["a"] });
  });
});
