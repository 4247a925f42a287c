import { describe, expect, it } from "vitest";
import { main } from "../src/01-safety-guardrails.js";

describe("01 safety guardrails", () => {
  it("blocks destructive tools however they are spelled, warns on sensitive ones, restricts juniors", async () => {
    const lines: string[] = [];
    const summary = await main((line) => lines.push(line));
    expect(summary.calls.map((c) => `${c.label} -> ${c.status}`)).toEqual([
      "drop_table -> blocked",
      "Delete File (spelled differently) -> blocked",
      "systemShutdown (camelCase) -> blocked",
      "dеlete_file (Cyrillic е) -> blocked",
      "purge_cache (flagged destructive) -> blocked",
      "read_file -> ok",
      "send_email by senior_agent -> ok",
      "send_email by junior_agent -> blocked",
      "charge_payment -> ok",
      "web_search on a sensitive task -> blocked",
      "web_search on a routine task -> ok",
    ]);
    const reasons = summary.calls.map((c) => c.reason).filter(Boolean);
    expect(reasons).toEqual([
      "drop_table is on the deny list (drop_table)",
      "Delete File is on the deny list (delete_file)",
      "systemShutdown is on the deny list (system_shutdown)",
      "dеlete_file is on the deny list (delete_file)",
      "purge_cache is on the deny list (tag destructive)",
      "send_email is on the deny list of role junior_agent (send_email)",
      "web_search is on the deny list of rule sensitive-task (web_search)",
    ]);
    expect(summary.ran).toEqual(["read_file", "send_email", "charge_payment", "web_search"]);
    expect(summary.warnings).toEqual([
      "executing sensitive tool send_email (warn list: send_email)",
      "executing sensitive tool charge_payment (warn list: charge_payment)",
    ]);
    expect(lines).toContain(
      "🛑 drop_table: Tool execution blocked by hook. Tool: drop_table. Reason: drop_table is on the deny list (drop_table)",
    );
    expect(lines.filter((l) => l.startsWith("⚠️"))).toHaveLength(2);
  });
});
