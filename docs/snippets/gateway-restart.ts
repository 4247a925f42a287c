// snippet: gateway-restart.ts
import { ToolHooks } from "@toolware/core";
import { createGateway } from "@toolware/gateway";

const gateway = createGateway({
  upstreams: [
    { name: "fs", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
    // a flaky server: more tries, started again sooner
    { name: "git", command: "uvx", args: ["mcp-server-git"], restart: { maxRestarts: 10, initialDelayMs: 100 } },
  ],
  hooks: new ToolHooks(),
  restart: { maxRestarts: 3, windowMs: 120_000, maxDelayMs: 10_000 },
  onEvent: (event) => {
    if (event.type === "upstream-restarting") console.error(`${event.upstream} ${event.reason}, restarting`);
    if (event.type === "upstream-down") console.error(`${event.upstream} is down: ${event.reason}`);
  },
});
await gateway.start();
