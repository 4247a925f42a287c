import { describe, expect, it } from "vitest";
import { main } from "../src/04-result-sanitising.js";

describe("04 result sanitising", () => {
  it("hides keys, tokens, e-mails, URL passwords and Luhn-valid cards from the agent", async () => {
    const lines: string[] = [];
    const summary = await main((line) => lines.push(line));
    expect(summary.results.get_customer).toBe(
      [
        "Customer: Jane Doe <[EMAIL-REDACTED]>",
        "api_key=[REDACTED]",
        // The order number is not Luhn-valid, so it is not mistaken for a card.
        "Card on file: [CARD-REDACTED], order number: 1234 5678 9012 3456",
        "Escalated as [REDACTED]",
      ].join("\n"),
    );
    expect(JSON.parse(summary.results.get_config as string)).toEqual({
      service: "billing",
      owner: "[EMAIL-REDACTED]",
      apiKey: "[REDACTED]",
      database: { url: "postgres://billing:[REDACTED]@db.internal:5432/billing", password: "[REDACTED]" },
    });
    expect(summary.results.dump_headers).toBe(
      "GET /v1/me\nAuthorization: Bearer [REDACTED]\nX-GitHub-Token: [REDACTED]",
    );
    expect(summary.results.query_db).toBe(
      "Tool execution failed. Tool: query_db. Error: connection refused: postgres://billing:[REDACTED]@db.internal:5432/billing",
    );
    expect(summary.rawUntouched).toBe(true);
    const everything = lines.join("\n");
    for (const secret of ["sk-proj-", "AKIA", "s3cr3t", "eyJ", "ghp_", "jane.doe@", "4111", "123456"]) {
      expect(everything).not.toContain(secret);
    }
  });
});
