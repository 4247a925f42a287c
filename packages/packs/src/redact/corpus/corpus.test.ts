import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactText } from "../index.js";
import {
  ACCEPTED,
  DETECT_SECRETS_SOURCE,
  damageCases,
  families,
  GITLEAKS_SOURCE,
  leaks,
  measure,
} from "./test-fixtures.js";

// The corpus: gitleaks' and detect-secrets' public examples (sources and commits in their
// folders) and synthetic values of the documented formats, in sentences and in every syntax.

describe("redact on the public corpus", () => {
  const result = measure(redactText, families(), damageCases());

  it("names its sources", () => {
    expect(GITLEAKS_SOURCE.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(DETECT_SECRETS_SOURCE.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it.each(result.families.map((f) => [f.family, f] as const))("%s: at least 99%% of the secrets go", (_name, f) => {
    expect(f.cases).toBeGreaterThanOrEqual(10);
    expect(f.leaked.map((c) => c.text)).toEqual([]);
    expect(f.recall).toBeGreaterThanOrEqual(0.99);
  });

  it("damages none of the non-secrets (references, expressions, other keys, digests, UUIDs, scanners' false positives)", () => {
    expect(result.damaged).toEqual([]);
  });

  it("over-redacts only the placeholders it is documented to", () => {
    // Each accepted case really is changed (otherwise it belongs to the damage set).
    expect(result.accepted.changed).toBe(ACCEPTED.size);
    expect(redactText("aws_access_key: AKIAIOSFODNN7EXAMPLE")).toBe("aws_access_key: [REDACTED]");
  });

  it("counts a value cut short as a leak", () => {
    expect(leaks({ text: "password=Tr0ub4dor&3x", secret: "Tr0ub4dor&3x" }, "password=[REDACTED]&3x")).toBe(true);
    expect(leaks({ text: "password=Tr0ub4dor&3x", secret: "Tr0ub4dor&3x" }, "password=[REDACTED]")).toBe(false);
  });
});

describe("no card inside a longer token", () => {
  it("leaves random hex digests and UUIDs alone", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.stringMatching(/^[0-9a-f]{64}$/),
          fc.stringMatching(/^[0-9a-f]{40}$/),
          fc.uuid(),
          fc.stringMatching(/^[0-9a-f]{8}-[0-9]{4}-[0-9]{4}-[0-9]{4}-[0-9]{12}$/),
          fc.stringMatching(/^[A-F][0-9A-F]{0,7}[0-9]{13,19}[0-9A-F]{0,7}[A-F]$/),
        ),
        (id) => {
          for (const text of [id, `sha256:${id}`, `{"id":"${id}"}`, `etag "${id}" done`])
            expect(redactText(text)).toBe(text);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("still finds a card that stands alone", () => {
    expect(redactText("card 4111 1111 1111 1111, id a4111111111111111b")).toBe(
      "card [CARD-REDACTED], id a4111111111111111b",
    );
  });
});
