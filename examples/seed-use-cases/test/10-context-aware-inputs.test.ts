import { describe, expect, it } from "vitest";
import { main } from "../src/10-context-aware-inputs.js";

describe("10 context-aware input modification", () => {
  it("adds domains for researchers and a high priority for urgent e-mails, in place", async () => {
    const lines: string[] = [];
    const { received, modifiedBy } = await main((line) => lines.push(line));
    expect(received.map((r) => r.input)).toEqual([
      { query: "transformer interpretability", domains: ["edu", "gov", "org"] },
      { query: "newsletter templates" },
      { to: "customers@example.com", subject: "Outage", priority: "high" },
      { to: "team@example.com", subject: "Weekly" },
      { query: "status page best practices", domains: ["edu", "gov", "org"] },
    ]);
    expect(modifiedBy).toEqual([
      ["for-agents:restrictResearchDomains"],
      [],
      ["when:prioritiseUrgentEmail"],
      [],
      ["for-agents:restrictResearchDomains"],
    ]);
    expect(lines.filter((l) => l.startsWith("  input changed by"))).toHaveLength(3);
  });
});
