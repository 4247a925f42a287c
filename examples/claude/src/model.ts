// The offline model: a scripted Anthropic Messages API on loopback. Claude Code POSTs /v1/messages and reads a
// stream of server-sent events; each request that offers tools gets the next scripted step.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One step of the script: call a tool, or say something and end the turn. */
export type Step = { tool: string; id: string; input: object } | { say: string };

const event = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

function answer(step: Step): string {
  const isTool = "tool" in step;
  const block = isTool ? { type: "tool_use", id: step.id, name: step.tool, input: {} } : { type: "text", text: "" };
  const delta = isTool
    ? { type: "input_json_delta", partial_json: JSON.stringify(step.input) }
    : { type: "text_delta", text: step.say };
  return [
    event("message_start", {
      type: "message_start",
      message: {
        id: "msg_example",
        type: "message",
        role: "assistant",
        model: "scripted",
        content: [],
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    }),
    event("content_block_start", { type: "content_block_start", index: 0, content_block: block }),
    event("content_block_delta", { type: "content_block_delta", index: 0, delta }),
    event("content_block_stop", { type: "content_block_stop", index: 0 }),
    event("message_delta", {
      type: "message_delta",
      delta: { stop_reason: isTool ? "tool_use" : "end_turn" },
      usage: { output_tokens: 1 },
    }),
    event("message_stop", { type: "message_stop" }),
  ].join("");
}

/** Starts the scripted API; `seen` collects what the model was sent back for each tool call. */
export async function startModel(steps: Step[]) {
  const seen: string[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const request = JSON.parse(body || "{}") as { tools?: unknown[]; messages?: { content: unknown }[] };
      const main = Array.isArray(request.tools) && request.tools.length > 0;
      const last = request.messages?.at(-1)?.content;
      if (main && Array.isArray(last)) {
        for (const part of last as { type?: string; tool_use_id?: string; content?: unknown }[]) {
          const line = `${part.tool_use_id}: ${JSON.stringify(part.content)}`;
          // A request carries the whole conversation: each result is reported once.
          if (part.type === "tool_result" && !seen.includes(line)) seen.push(line);
        }
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(answer(main ? (steps[next++] ?? { say: "All done." }) : { say: "ok" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => server.close() };
}
