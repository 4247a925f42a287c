import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { main, POLICY_FILE } from "../src/main.js";

describe("the seed's use cases guarded by one policy file", () => {
  it("denies, asks, validates, redacts, caches, limits, stops loops and retries as the file says", async () => {
    const lines: string[] = [];
    const summary = await main((line) => lines.push(line));
    const byLabel = Object.fromEntries(summary.calls.map((c) => [c.label, c]));
    expect(byLabel.drop_table).toMatchObject({
      status: "blocked",
      reason: "destructive tools are not allowed",
      rule: "no-destructive-tools",
    });
    expect(byLabel["purge_cache (flagged destructive)"]).toMatchObject({
      status: "blocked",
      rule: "no-destructive-annotations",
    });
    expect(byLabel["send_email by junior_agent"]).toMatchObject({
      status: "blocked",
      reason: "junior agents cannot send email",
    });
    expect(byLabel["send_email by senior_agent (approved)"]).toMatchObject({ status: "ok", rule: "approve-email" });
    expect(byLabel["make_purchase of 20"]?.status).toBe("ok");
    expect(byLabel["make_purchase of 500 (denied by the human)"]?.status).toBe("blocked");
    expect(byLabel["make_purchase of 900 (approved)"]?.status).toBe("ok");
    expect(summary.asked).toBe(3);
    expect(byLabel["read_file ../../etc/passwd"]).toMatchObject({ status: "blocked", rule: "no-path-escapes" });
    expect(byLabel["read_file notes.txt"]?.status).toBe("ok");
    expect(byLabel["web_search with a 500-character query"]?.status).toBe("blocked");
    expect(lines.find((l) => l.includes("get_api_key"))).not.toContain("sk-abcdefghijklmnopqrstuvwx12345678");
    expect(byLabel["post_to_social_media (shadow rule)"]?.status).toBe("ok");
    expect(summary.shadowed).toEqual(["social-media-next-week: post_to_social_media"]);
    // Cached: the second identical search is served from the cache and spends no quota; the fourth search is refused.
    expect(summary.calls.filter((c) => c.label.startsWith("search: ")).map((c) => c.status)).toEqual([
      "ok",
      "ok",
      "ok",
      "ok",
      "blocked",
    ]);
    // The third identical fetch in a row is a loop (maxRepeats counts the call itself).
    expect(summary.calls.filter((c) => c.label.startsWith("fetch_page")).map((c) => c.status)).toEqual([
      "ok",
      "ok",
      "blocked",
      "blocked",
    ]);
    expect(byLabel.flaky_api?.status).toBe("ok");
    expect(summary.flakyRuns).toBe(3);
    expect(summary.counters.rules["no-destructive-tools"]).toMatchObject({ matched: 1, denied: 1 });
    expect(summary.counters.rules["approve-large-purchases"]).toMatchObject({ matched: 2, asked: 2, approved: 1 });
    expect(summary.counters.rules["social-media-next-week"]).toMatchObject({ shadowDenied: 1, denied: 0 });
  });
});

describe("docs/coming-from-crewai.md", () => {
  it("shows this example's policy file as it is", () => {
    const page = readFileSync(new URL("../../../docs/coming-from-crewai.md", import.meta.url), "utf8");
    const section = page.slice(page.indexOf("## The guide's samples as one policy file"));
    const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(readFileSync(POLICY_FILE, "utf8"));
  });
});
