/**
 * The 50-rule policy the policy and gateway suites load: 40 rules by tool and agent, 5 by tag, 4 by glob with a CEL
 * condition, and `deciding`, the one rule that matches the measured call and allows it.
 *
 * @example
 * ```ts
 * const yaml = fiftyRulePolicy({ name: "echo", match: "{ tools: [echo] }" });
 * ```
 */
export function fiftyRulePolicy(deciding: { readonly name: string; readonly match: string }): string {
  const rules: string[] = [];
  for (let i = 0; i < 40; i++) {
    rules.push(
      `  - name: rule-${i}\n    match: { tools: [tool_${i}], agents: [intern] }\n    decide: deny\n    reason: no tool_${i} for interns`,
    );
  }
  for (let i = 0; i < 5; i++) {
    rules.push(`  - name: tag-${i}\n    match: { tags: [payments-${i}] }\n    decide: deny\n    reason: payments ${i}`);
  }
  for (let i = 0; i < 4; i++) {
    rules.push(
      `  - name: db-${i}\n    match: { tools: ["db${i}_*"], when: 'has(args.table) && args.table == "users"' }\n    decide: deny\n    reason: users table`,
    );
  }
  rules.push(`  - name: ${deciding.name}\n    match: ${deciding.match}\n    decide: allow`);
  return `version: 1\nname: bench\ndefault: allow\nrules:\n${rules.join("\n")}\n`;
}
