// snippet: crewai-09.ts
import { beforeToolCall, defaultToolHooks, defineTool, type ToolCallHookContext } from "@toolware/core";

beforeToolCall(function validateAndSanitizeInputs(context: ToolCallHookContext): boolean | undefined {
  // Validate search queries
  if (context.toolName === "web_search") {
    const query = String(context.toolInput.query ?? "");
    if (query.length < 3) {
      console.log("❌ Search query too short");
      return false;
    }

    // Sanitize query
    context.toolInput.query = query.trim().toLowerCase();
  }

  // Validate file paths
  if (context.toolName === "read_file") {
    const path = String(context.toolInput.path ?? "");
    if (path.includes("..") || path.startsWith("/")) {
      console.log("❌ Invalid file path");
      return false;
    }
  }

  return undefined;
});

const search = defineTool({ name: "web_search", execute: ({ query }: { query: string }) => `results for ${query}` });
const readFile = defineTool({ name: "read_file", execute: ({ path }: { path: string }) => `contents of ${path}` });
console.log((await defaultToolHooks.invoke(search, { query: "ai" })).status); // ❌ Search query too short, then: blocked
console.log((await defaultToolHooks.invoke(search, { query: "  TypeScript " })).result); // results for typescript
console.log((await defaultToolHooks.invoke(readFile, { path: "../etc/passwd" })).status); // ❌ Invalid file path, then: blocked
