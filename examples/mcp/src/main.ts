import { filesystemPart } from "./filesystem.js";
import { render } from "./report.js";
import { serverPart } from "./server.js";

const fs = await filesystemPart();
console.log(
  render("toolware × MCP\n\nA guarded client in front of @modelcontextprotocol/server-filesystem (stdio):", fs),
);
const server = await serverPart();
console.log(render("\nA guarded McpServer, reached over the in-memory transport:", server));
