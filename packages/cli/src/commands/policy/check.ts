import type { PolicyDocument } from "@toolware/policy";
import { defineCommand, EXIT } from "../kit.js";
import { openPolicy } from "./load.js";

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? "" : "s"}`;
}

/** `FILE: ok: 12 rules (3 deny, 1 approve, 2 allow, 6 packs only), 4 CEL conditions, Cedar; default deny, enforce`. */
export function summaryLine(shown: string, doc: PolicyDocument): string {
  const by = { deny: 0, approve: 0, allow: 0, none: 0 };
  for (const rule of doc.rules) by[rule.decide ?? "none"]++;
  const kinds = (["deny", "approve", "allow"] as const).filter((k) => by[k] > 0).map((k) => `${by[k]} ${k}`);
  if (by.none > 0) kinds.push(`${by.none} packs only`);
  const rules = plural(doc.rules.length, "rule") + (kinds.length === 0 ? "" : ` (${kinds.join(", ")})`);
  const cel = doc.rules.filter((r) => r.match?.when !== undefined).length;
  const parts = [rules];
  if (cel > 0) parts.push(plural(cel, "CEL condition"));
  if (doc.cedar !== undefined) parts.push("Cedar policies");
  const name = doc.name === undefined ? "" : ` policy "${doc.name}"`;
  return `${shown}: ok:${name} ${parts.join(", ")}; default ${doc.default}, mode ${doc.mode ?? "enforce"}\n`;
}

/** `toolware policy check <file>`: loads a policy file as the application would, and lists every problem. */
export const check = defineCommand({
  name: "check",
  summary: "check a policy file: every problem as FILE:LINE:COLUMN, exit 1",
  description: [
    "Loads a policy file (YAML or JSON) as loadPolicy() would: its keys and values, its CEL conditions, its Cedar",
    "policies (validated against their schema), the options of the packs its rules attach. Prints a one-line summary",
    'when it is valid; otherwise every problem on stderr as FILE:LINE:COLUMN: key path: message (did you mean "x"?).',
    "Stores named by URL (redis://…) are not connected to: the application passes them in code.",
  ].join("\n"),
  args: ["file"],
  options: {},
  failure: "the policy file has problems (listed on stderr) or cannot be read",
  async run({ positionals }, io) {
    const opened = await openPolicy(io, positionals[0] as string);
    if (typeof opened === "number") return opened;
    io.out(summaryLine(opened.shown, opened.loaded.document));
    return EXIT.ok;
  },
});
