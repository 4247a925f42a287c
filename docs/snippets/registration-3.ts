// snippet: registration-3.ts
import { Agent, definePack, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const audit = () => undefined;

const offAudit = hooks.before(audit, { name: "audit" });
hooks.after(audit, { name: "auditOut" }); // the same function twice: two registrations
hooks.use(async function timing(_ctx, next) {
  await next();
});
const guards = definePack({
  name: "guards",
  hooks: [{ kind: "before", fn: (ctx) => ctx.toolName !== "rm_rf" }],
});
hooks.use(guards);

console.log(hooks.list().map((h) => `${h.kind} ${h.name}`));
// ["before audit", "after auditOut", "middleware timing", "before guards:before#0"]

offAudit(); // exactly that registration
hooks.remove(audit); // every remaining registration of the function: true
hooks.remove(guards); // every hook the pack added: true
console.log(hooks.clear("middleware"), hooks.clear()); // 1 0: how many went

// explain(): the chain a call would run, outermost first, as HookInfo objects.
const junior = new Agent({ role: "junior_agent" });
junior.before((ctx) => ctx.toolName !== "delete_file", { name: "juniorsMayNotDelete" });
hooks.before(() => undefined, { name: "onlyForDb", tools: "db_*" });
hooks.before(() => undefined, { name: "perCall", tools: (ctx) => ctx.tool.destructive });
console.log(hooks.explain({ toolName: "delete_file", agent: junior }).map((h) => [h.layer, h.name, h.conditional]));
// [["global", "perCall", true], ["agent", "juniorsMayNotDelete", false]]: onlyForDb does not apply to delete_file
