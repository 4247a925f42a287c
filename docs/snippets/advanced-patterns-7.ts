// snippet: advanced-patterns-7.ts
import { defineTool, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const deleteFile = defineTool({ name: "delete_file", execute: () => "deleted" });

// An audit trail of every decision: the outermost after-hook runs last, when ctx.trace holds what
// every other hook of the call did. It observes, so it fails open.
const auditLog: { callId: string; tool: string; status: string; decisions: string[] }[] = [];
hooks.after(
  function auditTrail(ctx) {
    const decisions = ctx.trace
      .filter((t) => t.action !== "proceeded")
      .map((t) => `${t.layer}/${t.hook} ${t.action}${t.reason ? `: ${t.reason}` : ""}`);
    auditLog.push({ callId: ctx.callId, tool: ctx.toolName, status: ctx.status, decisions });
  },
  { priority: 1_000, onError: "continue" },
);

hooks.before(function defaults(ctx) {
  ctx.toolInput.dryRun ??= true;
});
hooks.before(function confirmDeletes(ctx) {
  if (ctx.toolName === "delete_file" && ctx.toolInput.dryRun !== false) ctx.block("set dryRun: false to delete");
});

await hooks.invoke(deleteFile, { path: "a.txt" });
console.log(auditLog[0]?.decisions);
// ["global/defaults modified-input", "global/confirmDeletes blocked: set dryRun: false to delete"]
