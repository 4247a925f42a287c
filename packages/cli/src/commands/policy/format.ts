import type { ExplainCall, ExplainedRule, PolicyExplanation } from "@toolware/policy";

const MISSED = {
  tools: "the tool is not one of its tools",
  tags: "the tool has none of its tags",
  annotations: "the tool's annotations differ",
  agents: "the agent is not one of its agents",
  crews: "the crew is not one of its crews",
  callers: "the caller is not one of its callers",
  when: "its condition is false",
} as const;

function ruleLine(rule: ExplainedRule, width: number, deciding: string): string {
  const c = rule.condition;
  let why: string;
  if (c?.result === "error")
    why = `matches: its condition failed (${c.error.split("\n")[0]}), so it denies (fails closed)`;
  else if (rule.failed !== undefined) why = `no match: ${MISSED[rule.failed]}`;
  else why = "matches";
  if (c !== undefined) why += `; when ${c.source} → ${c.result === "error" ? "error" : c.result}`;
  const mark = rule.name === deciding ? "→" : rule.matched ? "✓" : " ";
  const decide = (rule.decide ?? "packs").padEnd(7);
  const shadow = rule.mode === "shadow" ? " [shadow]" : "";
  return `  ${mark} ${rule.name.padEnd(width)}  ${decide} ${why}${shadow}\n`;
}

function callLine(call: ExplainCall): string {
  const parts = [call.tool];
  for (const key of ["agent", "crew", "caller"] as const) {
    if (call[key] !== undefined) parts.push(`${key} ${call[key]}`);
  }
  if (call.tags !== undefined) parts.push(`tags ${call.tags.join(",")}`);
  if (call.annotations !== undefined) {
    parts.push(
      `annotations ${Object.entries(call.annotations)
        .map(([k, v]) => `${k}=${v}`)
        .join(",")}`,
    );
  }
  parts.push(`args ${JSON.stringify(call.args ?? {})}`);
  return `call: ${parts.join("  ")}\n`;
}

function decisionLine(e: PolicyExplanation): string {
  const by =
    e.source === "default" ? "the file's default" : e.source === "cedar" ? `Cedar (${e.rule})` : `rule "${e.rule}"`;
  const reason = e.reason === undefined ? "" : `: ${e.reason}`;
  return `decision: ${e.effect} by ${by}${reason}\n`;
}

function cedarLine(e: PolicyExplanation): string {
  const c = e.cedar;
  if (c === undefined) return "";
  if (!c.covers) return "cedar: no Cedar policy applies to this tool\n";
  const policies = c.policies.length === 0 ? "" : ` (${c.policies.join(", ")})`;
  const reason = c.reason === undefined ? "" : `: ${c.reason}`;
  const asked = c.consulted ? "" : " [not asked: a rule already denied]";
  return `cedar: ${c.effect === "none" ? "no policy decides" : c.effect}${policies}${reason}${asked}\n`;
}

/** The explanation as a person reads it: the call, every rule in file order and why, Cedar, the decision, packs. */
export function formatExplanation(shown: string, call: ExplainCall, e: PolicyExplanation): string {
  const width = Math.max(4, ...e.rules.map((r) => r.name.length));
  let out = `policy: ${shown}\n${callLine(call)}\n`;
  out += e.rules.length === 0 ? "rules: none\n" : "rules, in file order (→ decides, ✓ matches):\n";
  for (const rule of e.rules) out += ruleLine(rule, width, e.source === "rule" ? e.rule : "");
  out += `\n${cedarLine(e)}${decisionLine(e)}`;
  for (const s of e.shadowed) {
    out += `shadow: ${s.rule} would ${s.effect === "deny" ? "deny" : "ask for approval"}${s.reason === undefined ? "" : `: ${s.reason}`}\n`;
  }
  out += `packs: ${e.packs.length === 0 ? "none" : e.packs.join(", ")}\n`;
  return out;
}
