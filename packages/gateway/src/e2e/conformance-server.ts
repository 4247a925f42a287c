import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  type ElicitRequestFormParams,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  SubscribeRequestSchema,
  type Tool,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

// The MCP server the conformance suite's `server` scenarios expect: the tool, resource and prompt names and the
// shapes each scenario's description asks for. Written from those descriptions with the SDK's low-level Server,
// so that a tool can carry a raw JSON Schema 2020-12 inputSchema.

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** A WAV header with one silent sample. */
const WAV = Buffer.from(
  "5249464626000000574156456d74206610000000010001001f4000001f400000010008006461746102000000800080",
  "hex",
).toString("base64");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const noArgs = { type: "object", properties: {} } as const;
const oneString = (name: string) =>
  ({ type: "object", properties: { [name]: { type: "string" } }, required: [name] }) as const;

const TOOLS: Tool[] = [
  { name: "test_simple_text", description: "returns simple text", inputSchema: noArgs },
  { name: "test_image_content", description: "returns an image", inputSchema: noArgs },
  { name: "test_audio_content", description: "returns audio", inputSchema: noArgs },
  { name: "test_embedded_resource", description: "returns an embedded resource", inputSchema: noArgs },
  { name: "test_multiple_content_types", description: "returns text, image and resource", inputSchema: noArgs },
  { name: "test_tool_with_logging", description: "logs three messages", inputSchema: noArgs },
  { name: "test_error_handling", description: "always fails", inputSchema: noArgs },
  { name: "test_tool_with_progress", description: "reports progress", inputSchema: noArgs },
  { name: "test_sampling", description: "asks the client's LLM", inputSchema: oneString("prompt") },
  { name: "test_elicitation", description: "asks the user", inputSchema: oneString("message") },
  { name: "test_elicitation_sep1034_defaults", description: "elicitation with defaults", inputSchema: noArgs },
  { name: "test_elicitation_sep1330_enums", description: "elicitation with every enum form", inputSchema: noArgs },
  { name: "test_reconnection", description: "closes its SSE stream mid-call", inputSchema: noArgs },
  {
    name: "json_schema_2020_12_tool",
    description: "Tool with JSON Schema 2020-12 features",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
      },
      properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
      additionalProperties: false,
    },
  },
];

const SEP1034: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  },
};

const SEP1330: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
      ],
    },
    legacyEnum: { type: "string", enum: ["opt1", "opt2"], enumNames: ["Option One", "Option Two"] },
    untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
    titledMulti: {
      type: "array",
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
        ],
      },
    },
  },
};

type Extra = {
  requestId: string | number;
  signal: AbortSignal;
  _meta?: { progressToken?: string | number };
  sendNotification(n: ServerNotification): Promise<void>;
  closeSSEStream?: () => void;
};

async function callTool(server: Server, name: string, args: Record<string, unknown>, extra: Extra) {
  const related = { relatedRequestId: extra.requestId };
  switch (name) {
    case "test_simple_text":
      return text("This is a simple text response for testing.");
    case "test_image_content":
      return { content: [{ type: "image", data: PNG, mimeType: "image/png" }] };
    case "test_audio_content":
      return { content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] };
    case "test_embedded_resource":
      return {
        content: [
          {
            type: "resource",
            resource: {
              uri: "test://embedded-resource",
              mimeType: "text/plain",
              text: "This is an embedded resource.",
            },
          },
        ],
      };
    case "test_multiple_content_types":
      return {
        content: [
          { type: "text", text: "Multiple content types test:" },
          { type: "image", data: PNG, mimeType: "image/png" },
          {
            type: "resource",
            resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":1}' },
          },
        ],
      };
    case "test_tool_with_logging":
      for (const [i, data] of [
        "Tool execution started",
        "Tool processing data",
        "Tool execution completed",
      ].entries()) {
        if (i > 0) await sleep(50);
        await extra.sendNotification({ method: "notifications/message", params: { level: "info", data } });
      }
      return text("logged three messages");
    case "test_error_handling":
      return { isError: true, content: [{ type: "text", text: "This tool intentionally returns an error" }] };
    case "test_tool_with_progress": {
      const token = extra._meta?.progressToken;
      for (const progress of [0, 50, 100]) {
        if (progress > 0) await sleep(50);
        if (token !== undefined)
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken: token, progress, total: 100 },
          });
      }
      return text("progress reported");
    }
    case "test_sampling": {
      const answer = await server.createMessage(
        { messages: [{ role: "user", content: { type: "text", text: String(args.prompt) } }], maxTokens: 100 },
        related,
      );
      return text(`LLM response: ${answer.content.type === "text" ? answer.content.text : answer.content.type}`);
    }
    case "test_elicitation": {
      const requestedSchema = {
        type: "object" as const,
        properties: {
          username: { type: "string" as const, description: "User's response" },
          email: { type: "string" as const, description: "User's email address" },
        },
        required: ["username", "email"],
      };
      const answer = await server.elicitInput({ message: String(args.message), requestedSchema }, related);
      return text(`User response: ${answer.action} ${JSON.stringify(answer.content ?? {})}`);
    }
    case "test_elicitation_sep1034_defaults":
    case "test_elicitation_sep1330_enums": {
      const requestedSchema = name === "test_elicitation_sep1034_defaults" ? SEP1034 : SEP1330;
      const answer = await server.elicitInput({ message: "Please review", requestedSchema }, related);
      return text(`Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`);
    }
    case "test_reconnection":
      // The client must come back with Last-Event-ID to get this result (SEP-1699).
      extra.closeSSEStream?.();
      await sleep(100);
      return text("Reconnection test completed");
    default:
      throw new McpError(-32602, `Unknown tool: ${name}`);
  }
}

const RESOURCES = [
  { uri: "test://static-text", name: "static-text", description: "a text resource", mimeType: "text/plain" },
  { uri: "test://static-binary", name: "static-binary", description: "a binary resource", mimeType: "image/png" },
  {
    uri: "test://watched-resource",
    name: "watched",
    description: "a resource to subscribe to",
    mimeType: "text/plain",
  },
];

function readResource(uri: string) {
  if (uri === "test://static-text")
    return { uri, mimeType: "text/plain", text: "This is the content of the static text resource." };
  if (uri === "test://static-binary") return { uri, mimeType: "image/png", blob: PNG };
  if (uri === "test://watched-resource") return { uri, mimeType: "text/plain", text: "watched" };
  const id = /^test:\/\/template\/([^/]+)\/data$/.exec(uri)?.[1];
  if (id !== undefined)
    return {
      uri,
      mimeType: "application/json",
      text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    };
  throw new McpError(-32002, `Resource not found: ${uri}`);
}

const PROMPTS = [
  { name: "test_simple_prompt", description: "a prompt without arguments" },
  {
    name: "test_prompt_with_arguments",
    description: "a prompt with two arguments",
    arguments: [
      { name: "arg1", description: "First test argument", required: true },
      { name: "arg2", description: "Second test argument", required: true },
    ],
  },
  {
    name: "test_prompt_with_embedded_resource",
    description: "a prompt embedding a resource",
    arguments: [{ name: "resourceUri", description: "the resource to embed", required: true }],
  },
  { name: "test_prompt_with_image", description: "a prompt with an image" },
];

function getPrompt(name: string, args: Record<string, string>): GetPromptResult {
  const say = (value: string) => ({ role: "user" as const, content: { type: "text" as const, text: value } });
  switch (name) {
    case "test_simple_prompt":
      return { messages: [say("This is a simple prompt for testing.")] };
    case "test_prompt_with_arguments":
      return { messages: [say(`Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'`)] };
    case "test_prompt_with_embedded_resource": {
      const resource = { uri: String(args.resourceUri), mimeType: "text/plain", text: "Embedded resource content." };
      return {
        messages: [
          { role: "user", content: { type: "resource", resource } },
          say("Please process the embedded resource above."),
        ],
      };
    }
    case "test_prompt_with_image":
      return {
        messages: [
          { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
          say("Please analyze the image above."),
        ],
      };
    default:
      throw new McpError(-32602, `Unknown prompt: ${name}`);
  }
}

/** A fresh conformance server (one per MCP session). */
export function conformanceServer(): Server {
  const server = new Server(
    { name: "toolware-conformance-upstream", version: "1.0.0" },
    {
      capabilities: {
        tools: {},
        resources: { subscribe: true },
        prompts: {},
        completions: {},
        logging: {},
      },
    },
  );
  const subscriptions = new Set<string>();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(server, request.params.name, request.params.arguments ?? {}, extra as Extra),
  );
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: RESOURCES }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: "test://template/{id}/data",
        name: "template",
        description: "data by id",
        mimeType: "application/json",
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => ({ contents: [readResource(request.params.uri)] }));
  server.setRequestHandler(SubscribeRequestSchema, (request) => {
    subscriptions.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, (request) =>
    getPrompt(request.params.name, request.params.arguments ?? {}),
  );
  server.setRequestHandler(CompleteRequestSchema, (request) => {
    const values = ["paris", "park", "party", "test", "testing"].filter((v) =>
      v.startsWith(request.params.argument.value),
    );
    return { completion: { values, total: values.length, hasMore: false } };
  });
  return server;
}
