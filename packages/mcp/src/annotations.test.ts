import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ToolHooks, ToolwareTypeError, toolwareCode } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ANNOTATION_TAGS, guardClient } from "./index.js";
import { firstText, link, newClient } from "./test-fixtures.js";

// A server that says what the test wants about one tool, and counts the runs.
function lyingServer(annotations: Record<string, unknown>) {
  const server = new McpServer({ name: "liar", version: "1.0.0" });
  const runs: string[] = [];
  server.registerTool("wipe", { inputSchema: { x: z.string() }, annotations }, async ({ x }) => {
    runs.push(x);
    return { content: [{ type: "text", text: "wiped" }] };
  });
  return { server, runs };
}

async function guarded(
  annotations: Record<string, unknown>,
  options: Parameters<typeof guardClient>[2],
  deny: object[],
) {
  const hooks = new ToolHooks();
  hooks.use(guardrails({ deny: deny as never }));
  const { server, runs } = lyingServer(annotations);
  const client = guardClient(newClient(), hooks, options);
  await link(server, client);
  return { client, runs };
}

describe("annotations can make a guard stricter, never looser", () => {
  it("a tool the app declared destructive stays destructive whatever the server says", async () => {
    const hints = fc.record({
      readOnlyHint: fc.constantFrom(true, false, undefined),
      destructiveHint: fc.constantFrom(false, undefined),
    });
    await fc.assert(
      fc.asyncProperty(hints, async (annotations) => {
        const { client, runs } = await guarded(annotations, { tools: { wipe: { destructive: true } } }, [
          { destructive: true },
        ]);
        const result = await client.callTool({ name: "wipe", arguments: { x: "all" } });
        expect(result.isError).toBe(true);
        expect(runs).toEqual([]);
      }),
      { numRuns: 8 },
    );
  });

  it("destructiveHint: true makes an undeclared tool destructive; readOnlyHint does not undo it", async () => {
    const { client, runs } = await guarded({ destructiveHint: true, readOnlyHint: true }, {}, [{ destructive: true }]);
    expect((await client.callTool({ name: "wipe", arguments: { x: "a" } })).isError).toBe(true);
    expect(runs).toEqual([]);
  });

  it("only exactly true counts: a hint of 'yes' neither loosens nor strengthens", async () => {
    const { client, runs } = await guarded({ destructiveHint: "yes" }, {}, [{ destructive: true }]);
    // The SDK's own schema rejects non-boolean hints in listTools, so the tool cannot be read: it counts as destructive.
    await expect(client.listTools()).rejects.toThrow();
    const result = await client.callTool({ name: "wipe", arguments: { x: "a" } });
    expect(result.isError).toBe(true);
    expect(runs).toEqual([]);
  });

  it("readOnlyHint becomes the read-only tag, which guards can match", async () => {
    for (const [hint, tag] of Object.entries(ANNOTATION_TAGS)) {
      const { client, runs } = await guarded({ [hint]: true }, {}, [{ tag }]);
      const result = await client.callTool({ name: "wipe", arguments: { x: "a" } });
      expect(result.isError).toBe(true);
      // Tags are compared after name normalisation: "read-only" reads "read_only" in the reason.
      expect(firstText(result)).toContain(`tag ${tag.replace("-", "_")}`);
      expect(runs).toEqual([]);
    }
  });

  it("a tool the server does not list counts as destructive", async () => {
    const { client } = await guarded({}, {}, [{ destructive: true }]);
    const result = await client.callTool({ name: "hidden", arguments: {} });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(/blocked/i);
  });

  it("an undeclared, unannotated tool runs (toolware's default: not destructive)", async () => {
    const { client, runs } = await guarded({}, {}, [{ destructive: true }]);
    expect((await client.callTool({ name: "wipe", arguments: { x: "a" } })).isError).toBeUndefined();
    expect(runs).toEqual(["a"]);
  });

  it("checks its options: a typo never switches a guard off", () => {
    const hooks = new ToolHooks();
    const bad: unknown[] = [
      { tool: {} },
      { tools: { wipe: { destrutive: true } } },
      { tools: { wipe: { destructive: "yes" } } },
      { tools: { wipe: { tags: "x" } } },
      { tools: [] },
      { bind: "me" },
      { sendBindings: 1 },
      null,
    ];
    for (const options of bad) {
      let error: unknown;
      try {
        guardClient(newClient(), hooks, options as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ToolwareTypeError);
      expect(toolwareCode(error)).toMatch(/^TOOLWARE_(UNKNOWN|INVALID)_OPTION$/);
    }
    expect(() => guardClient({} as never, hooks)).toThrow(TypeError);
    expect(() => guardClient(newClient(), {} as never)).toThrow(TypeError);
    const client = guardClient(newClient(), hooks);
    expect(() => guardClient(client, hooks)).toThrow(expect.objectContaining({ code: "TOOLWARE_MCP_ALREADY_GUARDED" }));
  });
});
