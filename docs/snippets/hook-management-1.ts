// snippet: hook-management-1.ts
import { Agent, Crew, definePack, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const crew = new Crew({ name: "support" });
const junior = new Agent({ role: "junior_agent" });

function audit() {}
const noDeletes = () => false;

// Every registration returns a handle that removes exactly that registration.
const offAudit = hooks.before(audit, { name: "audit" });
hooks.after(audit, { name: "auditOut" }); // the same function again: a second registration
hooks.before(noDeletes, { name: "noDeletes", tools: ["delete_*", /^rm_/] }); // filtered
const guards = definePack({ name: "guards", hooks: [{ kind: "before", fn: (ctx) => ctx.toolName !== "rm_rf" }] });
hooks.use(guards);
crew.before(audit, { name: "crewAudit" });
junior.before(noDeletes, { name: "juniorNoDeletes" });

// list(): the hooks of one layer, in registration order.
console.log(hooks.list().map((h) => `${h.kind} ${h.name}`));
// ["before audit", "after auditOut", "before noDeletes", "before guards:before#0"]

console.log(offAudit(), offAudit()); // true false: the handle removes its own registration, once
console.log(hooks.remove(noDeletes)); // true: every registration of the function, filtered or not
console.log(hooks.remove(guards)); // true: every hook the pack added
console.log(hooks.clear("after"), hooks.clear()); // 1 0: how many went (of one kind, then all)

// Crews and agents are layers of their own, with the same methods.
console.log(crew.list().length, junior.remove(noDeletes), crew.dispose()); // 1 true 1
