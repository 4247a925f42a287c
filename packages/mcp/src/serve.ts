import type { McpServer, RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { normalizeName, type Tool, ToolwareError, ToolwareTypeError } from "@toolware/core";
import { ANNOTATION_TAGS } from "./annotations.js";
import { markServed } from "./served.js";
import { isGuarded } from "./server.js";

/** Options of {@link serveTool}: what MCP shows of the tool besides its name, description and input schema. */
export interface ServeToolOptions {
  title?: string;
  /** Added to what the tool says of itself; `destructiveHint: true` is always set for a destructive tool. */
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
}

type RegisterConfig = Parameters<McpServer["registerTool"]>[1];

// The SDK 1.x builds its JSON Schema and validates with zod only (v3 or v4), not any Standard Schema.
function isZod(schema: unknown): boolean {
  return schema !== null && typeof schema === "object" && ("_zod" in schema || "_def" in schema);
}

const SERVE_KEYS = ["title", "annotations", "_meta"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// A misspelt `annotations` would advertise a destructive tool's extra hints to no one: refuse it.
function checkServeOptions(options: unknown): ServeToolOptions {
  if (!isRecord(options)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "serveTool() options must be an object");
  }
  for (const key of Object.keys(options)) {
    if (!SERVE_KEYS.includes(key)) {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `serveTool(): unknown option \`${key}\` (allowed: ${SERVE_KEYS.join(", ")})`,
      );
    }
  }
  const { title, annotations, _meta } = options;
  if (title !== undefined && typeof title !== "string") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", "serveTool(): `title` must be a string");
  }
  for (const [key, value] of [
    ["annotations", annotations],
    ["_meta", _meta],
  ] as const) {
    if (value !== undefined && !isRecord(value)) {
      throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `serveTool(): \`${key}\` must be an object`);
    }
  }
  return { title, annotations, _meta } as ServeToolOptions;
}

/**
 * Registers a toolware tool on a {@link guardServer}-ed McpServer: MCP validates the input with the
 * tool's zod `inputSchema`, then every call runs the hooks' chain around `tool.execute`. The tool's
 * `destructive` flag and "read-only" tag are advertised as annotations.
 *
 * @example
 * ```ts
 * const server = guardServer(new McpServer({ name: "notes", version: "1.0.0" }), hooks);
 * serveTool(server, defineTool({ name: "read_note", inputSchema: z.object({ path: z.string() }), execute }));
 * ```
 */
export function serveTool<I extends object, O>(
  server: McpServer,
  tool: Tool<I, O>,
  options: ServeToolOptions = {},
): RegisteredTool {
  if (server === null || typeof server !== "object" || !isGuarded(server)) {
    throw new ToolwareTypeError(
      "TOOLWARE_MCP_NOT_GUARDED",
      "serveTool() needs a server guarded with guardServer(server, hooks) first, or the tool would run without its hooks",
    );
  }
  if (
    tool === null ||
    typeof tool !== "object" ||
    typeof tool.execute !== "function" ||
    typeof tool.name !== "string"
  ) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_TOOL", "serveTool() needs a tool made with defineTool()");
  }
  const schema = tool.inputSchema;
  if (schema === undefined) {
    throw new ToolwareTypeError(
      "TOOLWARE_MCP_NO_INPUT_SCHEMA",
      `serveTool(): tool ${tool.name} has no inputSchema; MCP hands a tool its arguments only through one (defineTool({ inputSchema: z.object({ … }) }))`,
    );
  }
  if (!isZod(schema)) {
    throw new ToolwareTypeError(
      "TOOLWARE_MCP_UNSUPPORTED_SCHEMA",
      `serveTool(): tool ${tool.name}'s inputSchema is not a zod schema; @modelcontextprotocol/sdk 1.x takes zod (v3 or v4) only`,
    );
  }
  const { title, annotations, _meta } = checkServeOptions(options);
  const tags = new Set(tool.tags.map((t) => normalizeName(t)));
  const advertised: ToolAnnotations = { ...annotations };
  // A destructive tool is never advertised read-only, whatever the options say.
  if (tool.destructive) Object.assign(advertised, { destructiveHint: true, readOnlyHint: false });
  if (tags.has(normalizeName(ANNOTATION_TAGS.readOnlyHint)) && !tool.destructive) advertised.readOnlyHint = true;
  const config = {
    ...(title === undefined ? {} : { title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: schema,
    annotations: advertised,
    ...(_meta === undefined ? {} : { _meta }),
  } as RegisterConfig;
  // Only reached if the guard were bypassed: the guard runs the tool itself, through the chain.
  const handler = async (): Promise<never> => {
    throw new ToolwareError("TOOLWARE_MCP_NOT_GUARDED", `tool ${tool.name} was called outside its guard`);
  };
  markServed(handler, tool as unknown as Tool<Record<string, unknown>, unknown>);
  return server.registerTool(tool.name, config, handler as never);
}
