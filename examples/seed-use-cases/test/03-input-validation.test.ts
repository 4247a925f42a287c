import { describe, expect, it } from "vitest";
import { main } from "../src/03-input-validation.js";

describe("03 input validation", () => {
  it("sanitises queries, types inputs and keeps paths inside the workspace", async () => {
    const lines: string[] = [];
    const summary = await main((line) => lines.push(line));
    const byLabel = Object.fromEntries(summary.calls.map((c) => [c.label, c.reason ?? c.status]));
    expect(byLabel).toEqual({
      "search '  TypeScript Hooks '": "ok",
      "search '  ai  '": "query is too short (at least 3 characters, got 2)",
      "search without a query": "query is required",
      "search with limit 500": expect.stringMatching(/^invalid input for web_search: limit: /),
      "search with an extra key": "ok",
      "read notes/today.md": "ok",
      "read ../etc/passwd": 'invalid path in "path": parent-directory traversal (..)',
      "read %2e%2e%2fsecrets": 'invalid path in "path": parent-directory traversal (..)',
      "read ..\\..\\boot.ini": 'invalid path in "path": parent-directory traversal (..)',
      "read /etc/shadow": 'invalid path in "path": an absolute path',
      "read C:\\Windows\\win.ini": 'invalid path in "path": a Windows drive letter',
      "read ．．／etc (fullwidth)": 'invalid path in "path": parent-directory traversal (..)',
      "read ~/.ssh/id_rsa": 'invalid path in "path": home-directory expansion (~)',
    });
    expect(summary.received).toEqual([
      { query: "typescript hooks", limit: 7 },
      { query: "agents", limit: 5 },
      { path: "notes/today.md" },
    ]);
    expect(lines.filter((l) => l.startsWith("❌"))).toHaveLength(10);
  });
});
