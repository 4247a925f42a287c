// snippet: adapters-mcp-1.ts
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolHooks } from "@toolware/core";
import { guardClient } from "@toolware/mcp";
import { guardrails } from "@toolware/packs/guardrails";
import { redact } from "@toolware/packs/redact";

const hooks = new ToolHooks();
hooks.use(guardrails({ deny: [{ destructive: true }] })); // the server's destructiveHint counts
hooks.use(redact());

const client = guardClient(new Client({ name: "my-app", version: "1.0.0" }), hooks, {
  tools: { run_sql: { destructive: true } }, // the app's word: no annotation can undo it
});
await client.connect(new StdioClientTransport({ command: "mcp-server-filesystem", args: ["/srv/docs"] }));
const result = await client.callTool({ name: "write_file", arguments: { path: "/srv/docs/a.md", content: "" } });
console.log(result.isError); // true: "… Reason: write_file is on the deny list (destructive)"
