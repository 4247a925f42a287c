// Seed use case 3, input validation and sanitising: search queries of at least 3 characters (trimmed,
// lower-cased) and file paths without "..", not starting with "/".
// The seed checks the length before trimming ("  a  " passes), and its path test misses "%2e%2e/",
// "..\\", "C:\\", "．．／" (fullwidth) and every other spelling of a way out. Here queryRules sanitises
// first, a zod schema types the rest of the input (coercing "7" to 7, dropping unknown keys), and
// safePath checks every reading of the path against a root directory.
import { defineTool, ToolHooks } from "@toolware/core";
import { queryRules, safePath, validate } from "@toolware/packs/validate";
import { z } from "zod";

export interface InputValidationSummary {
  /** One entry per call, in order. */
  readonly calls: readonly { label: string; status: string; reason?: string }[];
  /** The inputs the tools really received. */
  readonly received: readonly Record<string, unknown>[];
}

export async function main(log: (line: string) => void = console.log): Promise<InputValidationSummary> {
  const received: Record<string, unknown>[] = [];
  const webSearch = defineTool({
    name: "web_search",
    execute: (input: Record<string, unknown>) => {
      received.push({ ...input });
      return `results for ${String(input.query)}`;
    },
  });
  const readFile = defineTool({
    name: "read_file",
    execute: (input: Record<string, unknown>) => {
      received.push({ ...input });
      return `contents of ${String(input.path)}`;
    },
  });

  const hooks = new ToolHooks();
  // Registration order is run order: sanitise the query first, then validate the whole input.
  hooks.use(queryRules({ tools: "web_search", field: "query", minLength: 3, trim: true, lowercase: true }));
  hooks.use(
    validate({
      schemas: {
        web_search: z.object({ query: z.string(), limit: z.coerce.number().int().min(1).max(20).default(5) }),
        read_file: z.object({ path: z.string() }),
      },
    }),
  );
  hooks.use(safePath({ tools: "read_file", fields: ["path"], root: "/srv/workspace" }));

  const plan: { label: string; tool: typeof webSearch; input: Record<string, unknown> }[] = [
    { label: "search '  TypeScript Hooks '", tool: webSearch, input: { query: "  TypeScript Hooks ", limit: "7" } },
    { label: "search '  ai  '", tool: webSearch, input: { query: "  ai  " } },
    { label: "search without a query", tool: webSearch, input: { limit: 3 } },
    { label: "search with limit 500", tool: webSearch, input: { query: "agents", limit: 500 } },
    { label: "search with an extra key", tool: webSearch, input: { query: "agents", admin: true } },
    { label: "read notes/today.md", tool: readFile, input: { path: "notes/today.md" } },
    { label: "read ../etc/passwd", tool: readFile, input: { path: "../etc/passwd" } },
    { label: "read %2e%2e%2fsecrets", tool: readFile, input: { path: "%2e%2e%2fsecrets" } },
    { label: "read ..\\..\\boot.ini", tool: readFile, input: { path: "..\\..\\boot.ini" } },
    { label: "read /etc/shadow", tool: readFile, input: { path: "/etc/shadow" } },
    { label: "read C:\\Windows\\win.ini", tool: readFile, input: { path: "C:\\Windows\\win.ini" } },
    { label: "read ．．／etc (fullwidth)", tool: readFile, input: { path: "．．／etc" } },
    { label: "read ~/.ssh/id_rsa", tool: readFile, input: { path: "~/.ssh/id_rsa" } },
  ];
  const calls: { label: string; status: string; reason?: string }[] = [];
  for (const { label, tool, input } of plan) {
    const outcome = await hooks.invoke(tool, input);
    if (outcome.status === "ok") {
      log(`✅ ${label}: ${outcome.result}`);
      calls.push({ label, status: "ok" });
    } else {
      log(`❌ ${label}: ${outcome.reason}`);
      calls.push({ label, status: outcome.status, reason: outcome.reason });
    }
  }
  return { calls, received };
}
