// snippet: context-5.ts
import { defineTool, formatToolResult, ToolHooks } from "@toolware/core";

const rows = defineTool({
  name: "query_rows",
  execute: () => [
    { id: 1, name: "Ada" },
    { id: 2, name: "Grace" },
  ],
  // Without formatResult the agent would see compact JSON: [{"id":1,"name":"Ada"},{"id":2,"name":"Grace"}]
  formatResult: (result) => result.map((r) => `- ${r.id}: ${r.name}`).join("\n"),
});

const hooks = new ToolHooks();
hooks.after((ctx) => `${ctx.toolResult}\n(${Array.isArray(ctx.rawToolResult) ? ctx.rawToolResult.length : 0} rows)`);

const outcome = await hooks.invoke(rows, {});
console.log(outcome.result); // "- 1: Ada\n- 2: Grace\n(2 rows)": toolResult, after every hook
console.log(outcome.raw); // [{ id: 1, name: "Ada" }, { id: 2, name: "Grace" }]: rawToolResult, never changed by hooks

// The same rules, applied by hand:
const plain = defineTool({ name: "plain", execute: () => null });
console.log(formatToolResult(plain, "text")); // text
console.log(formatToolResult(plain, { a: 1, big: 10n })); // {"a":1,"big":"10"}
console.log(formatToolResult(plain, undefined)); // "" (empty string)
console.log(formatToolResult(plain, null)); // null
