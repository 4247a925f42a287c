// The redact corpus report: per-family recall and false positives of redactText on the public
// examples of gitleaks and detect-secrets and on synthetic values of the documented formats (the
// corpus lives in packages/packs/src/redact/corpus; its test asserts the same figures).
//
//   npx tsx --conditions @toolware/source bench/src/redact-recall.ts
import { redactText } from "@toolware/packs/redact";
import {
  ACCEPTED,
  DETECT_SECRETS_SOURCE,
  damageCases,
  families,
  GITLEAKS_SOURCE,
  measure,
} from "../../packages/packs/src/redact/corpus/test-fixtures.js";

const result = measure(redactText, families(), damageCases());
const lines = [
  `corpus: ${GITLEAKS_SOURCE.repo}@${GITLEAKS_SOURCE.commit.slice(0, 10)} (${GITLEAKS_SOURCE.path}), ${DETECT_SECRETS_SOURCE.repo}@${DETECT_SECRETS_SOURCE.commit.slice(0, 10)} (${DETECT_SECRETS_SOURCE.path}), synthetic`,
  "",
  "| family | cases | removed | recall |",
  "|---|---|---|---|",
  ...result.families.map((f) => `| ${f.family} | ${f.cases} | ${f.removed} | ${(f.recall * 100).toFixed(2)}% |`),
  "",
  "| non-secrets (must stay as they are) | cases | changed |",
  "|---|---|---|",
];
const kinds = new Map<string, { total: number; changed: number }>();
const damaged = new Set(result.damaged);
for (const d of damageCases()) {
  const k = kinds.get(d.kind) ?? { total: 0, changed: 0 };
  k.total++;
  if (redactText(d.text) !== d.text) k.changed++;
  kinds.set(d.kind, k);
}
for (const [kind, k] of kinds) lines.push(`| ${kind} | ${k.total} | ${k.changed} |`);
lines.push(
  "",
  `Accepted over-redaction (placeholders and test values under sensitive keys, documented): ${result.accepted.changed} of ${ACCEPTED.size} scanners' false positives changed.`,
);
for (const f of result.families) for (const c of f.leaked) lines.push(`LEAK ${f.family}: ${JSON.stringify(c.text)}`);
for (const d of damaged) lines.push(`DAMAGE ${d.kind}: ${JSON.stringify(d.text)}`);
process.stdout.write(`${lines.join("\n")}\n`);
if (result.damaged.length > 0 || result.families.some((f) => f.recall < 0.99)) process.exitCode = 1;
