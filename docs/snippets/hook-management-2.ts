// snippet: hook-management-2.ts
import { Agent, Crew, type HookRegistry, ToolHooks } from "@toolware/core";

const hooks = new ToolHooks();
const crew = new Crew({ name: "support" });
const junior = new Agent({ role: "junior_agent" });

// An audit log of every change to the hooks: each layer emits its own hook:added / hook:removed.
const layers: HookRegistry[] = [hooks, crew, junior];
for (const layer of layers) {
  layer.on("hook:added", (h) => console.log(`+ ${h.layer}/${h.kind} ${h.name}`));
  layer.on("hook:removed", (h) => console.log(`- ${h.layer}/${h.kind} ${h.name}`));
}

hooks.before(() => undefined, { name: "audit", priority: 100 }); // + global/before audit
hooks.before(() => undefined, { name: "onlyDb", tools: "db_*" }); // + global/before onlyDb
hooks.after(() => undefined, { name: "perCall", tools: (ctx) => ctx.tool.destructive }); // + global/after perCall
crew.before(() => undefined, { name: "crewPolicy" }); // + crew/before crewPolicy
junior.before(() => false, { name: "juniorNoDeletes", tools: "delete_*" }); // + agent/before juniorNoDeletes

// explain(): the chain one call would run, across the layers, outermost first. Name filters are
// already applied; a predicate decides per call, so its hook is listed as conditional.
for (const h of hooks.explain({ toolName: "delete_file", agent: junior, crew })) {
  console.log(`${h.layer}/${h.kind} ${h.name}${h.conditional ? " (conditional)" : ""}`);
}
// global/before audit
// global/after perCall (conditional)
// crew/before crewPolicy
// agent/before juniorNoDeletes

crew.dispose(); // - crew/before crewPolicy
