import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One answer of the scripted Messages API: a tool call, or a text that ends the turn. */
export type Turn =
  | { readonly tool: string; readonly input: Record<string, unknown>; readonly id?: string }
  | { readonly text: string };

/** A request Claude Code sent, as JSON. */
export interface SeenRequest {
  readonly body: { messages?: { role: string; content: unknown }[]; tools?: unknown[] };
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

let ids = 0;

/** The streamed events of one turn, as the Messages API sends them. */
function stream(turn: Turn): string {
  const message = {
    id: `msg_${++ids}`,
    type: "message",
    role: "assistant",
    model: "claude-scripted",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
  let body = sse("message_start", { type: "message_start", message });
  if ("tool" in turn) {
    const id = turn.id ?? `toolu_${++ids}`;
    body += sse("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "tool_use", id, name: turn.tool, input: {} },
    });
    body += sse("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "input_json_delta", partial_json: JSON.stringify(turn.input) },
    });
  } else {
    body += sse("content_block_start", {
      type: "content_block_start",
      index: 0,
      content_block: { type: "text", text: "" },
    });
    body += sse("content_block_delta", {
      type: "content_block_delta",
      index: 0,
      delta: { type: "text_delta", text: turn.text },
    });
  }
  body += sse("content_block_stop", { type: "content_block_stop", index: 0 });
  body += sse("message_delta", {
    type: "message_delta",
    delta: { stop_reason: "tool" in turn ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  body += sse("message_stop", { type: "message_stop" });
  return body;
}

/** A scripted Anthropic Messages API on loopback: the offline model of Claude Code. */
export interface ScriptedApi {
  readonly url: string;
  /** The main-loop requests Claude Code sent (those offering tools), in order. */
  readonly requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Serves `turns` in order to Claude Code's main loop (requests that offer tools); side requests (titles, summaries)
 * get a short text. After the script, every request ends the turn with "done".
 */
export async function scriptedApi(turns: readonly Turn[]): Promise<ScriptedApi> {
  const requests: SeenRequest[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.startsWith("/v1/messages") || req.url.includes("count_tokens")) {
        res.writeHead(req.url?.includes("count_tokens") ? 200 : 404, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: 1 }));
        return;
      }
      let body: SeenRequest["body"] = {};
      try {
        body = JSON.parse(raw) as SeenRequest["body"];
      } catch {
        // An unreadable request gets the closing text.
      }
      const main = Array.isArray(body.tools) && body.tools.length > 0;
      let turn: Turn = { text: "done" };
      if (main) {
        requests.push({ body });
        turn = turns[next++] ?? { text: "done" };
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.end(stream(turn));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The environment that points the real Claude Code at the scripted API, with nothing else to reach. */
export function offlineEnv(api: ScriptedApi, home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "sk-offline-test",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    CLAUDE_CONFIG_DIR: join(home, ".claude"),
  };
}

/** The Claude Code binary the SDK installs (its optional platform package), or undefined when it is absent. */
export function claudeBinary(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const sdk = require.resolve("@anthropic-ai/claude-agent-sdk");
    const platform = createRequire(sdk).resolve(
      `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}/package.json`,
    );
    const dir = join(platform, "..");
    for (const name of ["claude", "cli", "claude.exe"]) if (existsSync(join(dir, name))) return join(dir, name);
    return undefined;
  } catch {
    return undefined;
  }
}

/** A fresh folder, removed by the returned function. */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The text of every tool_result in a request's last user message. */
export function toolResults(request: SeenRequest | undefined): { id: string; text: string; isError: boolean }[] {
  const last = request?.body.messages?.at(-1);
  if (last === undefined || !Array.isArray(last.content)) return [];
  return (last.content as Record<string, unknown>[])
    .filter((part) => part.type === "tool_result")
    .map((part) => ({
      id: String(part.tool_use_id),
      isError: part.is_error === true,
      text: Array.isArray(part.content)
        ? (part.content as { text?: string }[]).map((c) => c.text ?? "").join("")
        : String(part.content ?? ""),
    }));
}
