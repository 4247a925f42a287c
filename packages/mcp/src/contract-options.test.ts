import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { elicitationHumanInput, guardClient, guardServer, serveTool } from "./index.js";
import { newClient } from "./test-fixtures.js";

const code = (f: () => unknown): string | undefined => {
  try {
    f();
  } catch (error) {
    return toolwareCode(error);
  }
  return "no error";
};
const note = defineTool({ name: "note", inputSchema: z.object({ p: z.string() }), execute: () => "ok" });
const guarded = () => guardServer(new McpServer({ name: "s", version: "1.0.0" }), new ToolHooks());

// A misspelt option is refused with a stable code; none is silently ignored.
describe("@toolware/mcp: bad options are refused with stable codes", () => {
  const allowed = {
    client: ["bind", "tools", "onOutcome", "sendBindings"],
    server: ["bind", "onOutcome"],
    serve: ["title", "annotations", "_meta"],
    elicit: ["fallback"],
  };
  const unknownKey = (keys: string[]) =>
    fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !keys.includes(k) && k !== "__proto__");

  it("any unknown key: TOOLWARE_UNKNOWN_OPTION from every factory", () => {
    fc.assert(
      fc.property(unknownKey([...allowed.client, ...allowed.server, ...allowed.serve, ...allowed.elicit]), (key) => {
        const options = { [key]: true };
        expect(code(() => guardClient(newClient(), new ToolHooks(), options as never))).toBe("TOOLWARE_UNKNOWN_OPTION");
        expect(code(() => guardServer(new McpServer({ name: "s", version: "1" }), new ToolHooks(), options))).toBe(
          "TOOLWARE_UNKNOWN_OPTION",
        );
        expect(code(() => serveTool(guarded(), note, options as never))).toBe("TOOLWARE_UNKNOWN_OPTION");
        expect(code(() => elicitationHumanInput(options as never))).toBe("TOOLWARE_UNKNOWN_OPTION");
      }),
      { numRuns: 40 },
    );
  });

  it("serveTool: a typo in `annotations` or a wrong type registers nothing", () => {
    const server = guarded();
    expect(code(() => serveTool(server, note, { annotation: { destructiveHint: true } } as never))).toBe(
      "TOOLWARE_UNKNOWN_OPTION",
    );
    for (const bad of [{ title: 5 }, { annotations: "destructive" }, { annotations: [] }, { _meta: null }]) {
      expect(code(() => serveTool(server, note, bad as never))).toBe("TOOLWARE_INVALID_OPTION");
    }
    expect(code(() => serveTool(server, note, null as never))).toBe("TOOLWARE_INVALID_OPTION");
    // Nothing was registered by the refused calls: the tool can still be served once.
    expect(code(() => serveTool(server, note, { title: "Note" }))).toBe("no error");
  });

  it("guardClient / guardServer: wrong option types and tools entries", () => {
    const hooks = new ToolHooks();
    expect(code(() => guardClient(newClient(), hooks, { sendBindings: "no" } as never))).toBe(
      "TOOLWARE_INVALID_OPTION",
    );
    expect(code(() => guardClient(newClient(), hooks, { tools: { x: { destructive: "yes" } } } as never))).toBe(
      "TOOLWARE_INVALID_OPTION",
    );
    expect(code(() => guardClient(newClient(), hooks, { tools: { x: { destructve: true } } } as never))).toBe(
      "TOOLWARE_UNKNOWN_OPTION",
    );
    expect(code(() => guardServer(new McpServer({ name: "s", version: "1" }), hooks, { bind: {} } as never))).toBe(
      "TOOLWARE_INVALID_OPTION",
    );
    const client = guardClient(newClient(), hooks);
    expect(code(() => guardClient(client, hooks))).toBe("TOOLWARE_MCP_ALREADY_GUARDED");
  });
});
