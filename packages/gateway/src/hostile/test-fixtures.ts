import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Gateway, StdioUpstreamConfig } from "../index.js";

// A hostile MCP server as a raw child process: it writes the JSON-RPC lines it likes, not what an SDK would let it.
// It runs a tool whose name is a case or Unicode look-alike of one it has (a lenient server), so a look-alike the
// gateway forwarded would run, and it logs every tool it runs to HOSTILE_LOG: the test reads what reached it.
const SCRIPT = String.raw`
const { appendFileSync } = require("node:fs");
const log = process.env.HOSTILE_LOG;
const write = (m) => process.stdout.write(JSON.stringify(m) + "\n");
const text = (t) => ({ content: [{ type: "text", text: t }] });
const TOOLS = [
  { name: "echo", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "measure", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "huge", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "malformed", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "stray", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "flood", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "garbage", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "delete_file", inputSchema: { type: "object" }, annotations: { destructiveHint: true } },
];
const HOMOGLYPHS = { "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0456": "i", "\u0455": "s", "\u0440": "p", "\u0441": "c", "\u0445": "x", "\u0131": "i", "\u0261": "g" };
const canon = (n) => [...String(n).normalize("NFKC").replace(/[\u200b-\u200d\u2060\ufeff\u00ad]/g, "")]
  .map((c) => HOMOGLYPHS[c] ?? c).join("").toLowerCase();
const run = (id, name, args) => {
  if (log) appendFileSync(log, name + "\n");
  switch (name) {
    case "echo": return write({ jsonrpc: "2.0", id, result: text(String(args.text)) });
    case "measure": return write({ jsonrpc: "2.0", id, result: text(String(JSON.stringify(args).length)) });
    case "huge": return write({ jsonrpc: "2.0", id, result: text("x".repeat(Number(args.bytes) || 5 * 1024 * 1024)) });
    case "malformed": return write({ jsonrpc: "2.0", id, result: { content: "not a list", isError: "maybe" } });
    case "stray":
      // answers nobody's ids first, then the real answer, then the same id again
      write({ jsonrpc: "2.0", id: 987654, result: text("LEAK nobody") });
      write({ jsonrpc: "2.0", id: "someone-else", result: text("LEAK string id") });
      write({ jsonrpc: "2.0", id: typeof id === "number" ? id + 1 : 0, result: text("LEAK next id") });
      write({ jsonrpc: "2.0", id, result: text("stray " + String(args.text)) });
      return write({ jsonrpc: "2.0", id, result: text("LEAK twice") });
    case "flood":
      for (let i = 0; i < (Number(args.count) || 50000); i++) {
        write({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "flood " + i } });
      }
      return write({ jsonrpc: "2.0", id, result: text("flooded") });
    case "garbage":
      process.stdout.write("this is not json\n{\"jsonrpc\":\"2.0\"}\n[1,2,3]\n{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":7}\n");
      return write({ jsonrpc: "2.0", id, result: text("after garbage") });
    case "delete_file": return write({ jsonrpc: "2.0", id, result: text("deleted") });
  }
};
const parts = [];
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  parts.push(chunk);
  if (!chunk.includes("\n")) return;
  let buffer = parts.splice(0).join("");
  let nl;
  while ((nl = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    let m;
    try { m = JSON.parse(line); } catch { continue; }
    if (m.id === undefined) continue;
    if (m.method === "initialize") {
      write({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion,
        capabilities: { tools: { listChanged: true }, logging: {} }, serverInfo: { name: "hostile", version: "1" } } });
    } else if (m.method === "tools/list") write({ jsonrpc: "2.0", id: m.id, result: { tools: TOOLS } });
    else if (m.method === "tools/call") {
      const wanted = canon(m.params.name);
      const tool = TOOLS.find((t) => canon(t.name) === wanted);
      if (tool) run(m.id, tool.name, m.params.arguments ?? {});
      else write({ jsonrpc: "2.0", id: m.id, error: { code: -32602, message: "no such tool" } });
    } else if (m.method === "ping" || m.method === "logging/setLevel") write({ jsonrpc: "2.0", id: m.id, result: {} });
    else write({ jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } });
  }
  if (buffer !== "") parts.push(buffer);
});
`;

/** A stdio upstream running the hostile script, and the tools that reached it. */
export function hostileUpstream(name = "h", extra: Partial<StdioUpstreamConfig> = {}) {
  const log = join(mkdtempSync(join(tmpdir(), "toolware-hostile-")), "ran.log");
  const config: StdioUpstreamConfig = {
    name,
    command: process.execPath,
    args: ["-e", SCRIPT],
    env: { HOSTILE_LOG: log },
    ...extra,
  };
  const ran = (): string[] => {
    try {
      return readFileSync(log, "utf8").split("\n").filter(Boolean);
    } catch {
      return [];
    }
  };
  return { config, ran };
}

/** A client connected to the gateway in process. */
export async function inMemoryClient(gateway: Gateway, name = "client"): Promise<Client> {
  const [a, b] = InMemoryTransport.createLinkedPair();
  await gateway.connect(a);
  const client = new Client({ name, version: "1.0.0" });
  await client.connect(b);
  return client;
}
