// Seed use case 4, result sanitising: hide API keys, e-mail addresses and card numbers before the agent
// reads a tool's result.
// The seed's regexes miss provider key shapes (sk-…, ghp_…, AKIA…), JWTs and bearer tokens, redact any
// 16 digits as a card (Luhn-invalid order numbers too), turn `"apiKey": "x"` into invalid JSON, and its
// e-mail pattern backtracks quadratically on long dotted runs. The pack's detectors run in linear time,
// check cards with Luhn, keep structured results valid JSON and leave `rawToolResult` untouched.
import { defineTool, type Tool, ToolHooks } from "@toolware/core";
import { redact } from "@toolware/packs/redact";

export interface ResultSanitisingSummary {
  /** What the agent read, per tool. */
  readonly results: Readonly<Record<string, string>>;
  /** True when every raw result still holds the original secrets (for code that needs them). */
  readonly rawUntouched: boolean;
}

const CUSTOMER = [
  "Customer: Jane Doe <jane.doe@example.com>",
  "api_key=sk-proj-4f9a8b7c6d5e4f3a2b1c0d9e8f7a",
  "Card on file: 4111 1111 1111 1111, order number: 1234 5678 9012 3456",
  "Escalated as INTERNAL-004211",
].join("\n");
const CONFIG = {
  service: "billing",
  owner: "ops@example.com",
  apiKey: "AKIAIOSFODNN7EXAMPLE",
  database: { url: "postgres://billing:s3cr3t-pw@db.internal:5432/billing", password: 123456 },
};
const HEADERS =
  "GET /v1/me\nAuthorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJqYW5lIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ\nX-GitHub-Token: ghp_0123456789abcdefghijklmnopqrstuvwxyz";

export async function main(log: (line: string) => void = console.log): Promise<ResultSanitisingSummary> {
  const getCustomer = defineTool({ name: "get_customer", execute: () => CUSTOMER });
  const getConfig = defineTool({ name: "get_config", execute: () => CONFIG });
  const dumpHeaders = defineTool({ name: "dump_headers", execute: () => HEADERS });
  const queryDb = defineTool({
    name: "query_db",
    execute: () => {
      throw new Error("connection refused: postgres://billing:s3cr3t-pw@db.internal:5432/billing");
    },
  });

  const hooks = new ToolHooks();
  hooks.use(redact({ patterns: [/INTERNAL-\d{6}/] }));

  const results: Record<string, string> = {};
  const raws: unknown[] = [];
  const tools: Tool[] = [getCustomer, getConfig, dumpHeaders, queryDb];
  for (const tool of tools) {
    const outcome = await hooks.invoke(tool, {});
    results[tool.name] = outcome.result;
    raws.push(outcome.raw);
    log(`🔒 ${tool.name} (${outcome.status}):\n${outcome.result}`);
  }
  // After-hooks never change rawToolResult: code that needs the real values still has them.
  const rawUntouched =
    raws[0] === CUSTOMER && raws[1] === CONFIG && CONFIG.apiKey === "AKIAIOSFODNN7EXAMPLE" && raws[2] === HEADERS;
  return { results, rawUntouched };
}
