// snippet: packs-guardrails-2.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";

const hooks = new ToolHooks();
hooks.use(guardrails({ allow: ["read_file", "search"], deny: ["delete_file"] }));

const tool = (name: string) => defineTool({ name, execute: () => "ran" });
console.log((await hooks.invoke(tool("Read File"), {})).status); // "ok": the same name, spelled differently
console.log((await hooks.invoke(tool("read\u200bfile"), {})).reason);
// "read\\u{200b}file is not on the allow list (allow lists admit only the canonical spelling: …)"
console.log((await hooks.invoke(tool("ｓｅａｒｃｈ"), {})).status); // "blocked": fullwidth letters
console.log((await hooks.invoke(tool("dele\u00adte_file"), {})).reason);
// "dele\\u{ad}te_file is on the deny list (delete_file)": a soft hyphen does not hide it from a deny list
