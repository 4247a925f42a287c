import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runToolware } from "@toolware/cli";
import { readPolicyFile } from "@toolware/policy";
import { clock, emit, median, roundOptions, type Timing } from "../harness.js";

// `toolware policy check` on a 1,000-rule file, run in process as the bin runs it, beside reading and checking the
// same file alone (readPolicyFile: YAML, keys, values). One check takes tens to hundreds of milliseconds, so each
// round times one run of each subject (the order rotating) instead of mitata's batches of short calls.

/** A policy of `n` rules of four kinds: names and agents, a CEL condition, an approval on tags, packs. */
export function policyOf(n: number): string {
  const lines = ["version: 1", "name: bench-1000", "default: deny", "rules:"];
  for (let i = 0; i < n; i++) {
    const kind = i % 4;
    if (kind === 0) {
      lines.push(`  - name: deny-${i}`, `    match: { tools: [tool_${i}, "fs_${i}_*"], agents: [junior] }`);
      lines.push("    decide: deny", `    reason: rule ${i} denies`);
    } else if (kind === 1) {
      lines.push(
        `  - name: cel-${i}`,
        `    match: { tools: [write_${i}], when: 'args.path.contains("..") || size(args.path) > ${i}' }`,
      );
      lines.push("    decide: deny");
    } else if (kind === 2) {
      lines.push(`  - name: ask-${i}`, `    match: { tags: [mail_${i}], annotations: { destructiveHint: true } }`);
      lines.push("    decide: approve", "    approval: { timeout: 2m }");
    } else {
      lines.push(`  - name: allow-${i}`, `    match: { tools: ["read_${i}_*"] }`, "    decide: allow");
      lines.push("    packs:", `      rate-limit: { max: ${i + 1}, per: 1m }`);
    }
  }
  return `${lines.join("\n")}\n`;
}

const RULES = 1000;
const dir = mkdtempSync(join(tmpdir(), "toolware-bench-policy-"));
const file = join(dir, "policy.yaml");
writeFileSync(file, policyOf(RULES));
let printed = "";
const io = {
  out: (text: string) => {
    printed += text;
  },
  err: (text: string) => {
    printed += text;
  },
  cwd: dir,
};

const subjects = [
  {
    id: "policy-read-1000",
    label: "`readPolicyFile` of the 1,000-rule file (YAML, keys, values, positions)",
    run: async () => {
      const loaded = await readPolicyFile(file);
      if (loaded.document.rules.length !== RULES) throw new Error("the policy lost rules");
    },
  },
  {
    id: "policy-check-1000",
    label: "`toolware policy check` of the same file, in process (read, CEL compiled, packs built, summary printed)",
    run: async () => {
      printed = "";
      const code = await runToolware(["policy", "check", "policy.yaml"], io);
      if (code !== 0 || !printed.startsWith(`policy.yaml: ok: policy "bench-1000" ${RULES} rules`)) {
        throw new Error(`policy check failed (${code}): ${printed}`);
      }
    },
  },
];

try {
  for (const s of subjects) await s.run();
  const { rounds } = roundOptions({ rounds: 9, roundMs: 0 });
  const times = new Map<string, number[]>(subjects.map((s) => [s.id, []]));
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < subjects.length; k++) {
      const s = subjects[(k + r) % subjects.length] as (typeof subjects)[number];
      const t0 = clock.now();
      await s.run();
      times.get(s.id)?.push(clock.now() - t0);
    }
    process.stderr.write(".");
  }
  process.stderr.write("\n");
  const timings: Timing[] = subjects.map((s) => {
    const rs = times.get(s.id) ?? [];
    return { id: s.id, label: s.label, hooks: 0, ns: median(rs), rounds: rs };
  });
  emit({
    suite: "policy-check",
    case: String(RULES),
    reference: "policy-read-1000",
    timings,
    notes: [
      `policy-check: a ${RULES}-rule file of ${Math.round(policyOf(RULES).length / 1024)} KiB: ${RULES / 4} rules on tool names and agents, ${RULES / 4} with a CEL condition, ${RULES / 4} approvals on tags and annotations, ${RULES / 4} attaching a rate-limit pack. One run of each subject per round.`,
    ],
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
