import { defineTool, type Tool } from "@toolware/core";
import type { KeyPath, LoadedDocument, PolicyDocument, RuleDoc } from "../document.js";

/** A checked document as the loader would hand it over; positions are made up: each rule `i` sits on line 10 + i. */
export function loadedDoc(
  rules: readonly RuleDoc[],
  rest: Partial<Omit<PolicyDocument, "rules">> = {},
  file = "test.policy.yaml",
): LoadedDocument {
  const document = { version: 1, default: "allow", ...rest, rules } as PolicyDocument;
  return {
    document,
    file,
    locate(path: KeyPath) {
      const rule = path[0] === "rules" && typeof path[1] === "number" ? path[1] : -1;
      return { file, line: rule >= 0 ? 10 + rule : 1, column: path.length * 2 + 1 };
    },
  };
}

/** A tool that echoes its input's `path` (or "ok"). */
export function tool(name: string, extra: { tags?: string[]; destructive?: boolean } = {}): Tool {
  return defineTool({
    name,
    tags: extra.tags ?? [],
    destructive: extra.destructive ?? false,
    execute: (input: Record<string, unknown>) => `ran ${name} ${String(input.path ?? "")}`.trim(),
  });
}
