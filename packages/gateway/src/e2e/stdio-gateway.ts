// The gateway served over this process's stdio, in front of the hostile upstream: what a desktop client starts.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ToolHooks } from "@toolware/core";
import { createGateway } from "../index.js";

const fixture = new URL("./hostile-upstream.mjs", import.meta.url).pathname;
const gateway = createGateway({
  upstreams: [{ name: "h", command: process.execPath, args: [fixture], restart: { initialDelayMs: 0 } }],
  hooks: new ToolHooks(),
});
await gateway.start();
await gateway.connect(new StdioServerTransport());
process.stdin.once("end", () => void gateway.close().then(() => process.exit(0)));
