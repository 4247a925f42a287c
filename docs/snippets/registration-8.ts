// snippet: registration-8.ts
import { definePack, defineTool, ToolHooks } from "@toolware/core";

// A pack bundles hooks (and any extra API) so that one use() adds them and one call removes them.
function callCounter() {
  const counts = new Map<string, number>();
  return definePack({
    name: "call-counter",
    hooks: [
      {
        kind: "after",
        fn: (ctx) => {
          counts.set(ctx.toolName, (counts.get(ctx.toolName) ?? 0) + 1);
        },
        options: { name: "count", onError: "continue" },
      },
      // Named like the pack: listed as "call-counter", not "call-counter:callCounter".
      {
        kind: "before",
        fn: function callCounter(ctx) {
          return ctx.toolName !== "forbidden";
        },
      },
      { kind: "before", fn: (ctx) => ctx.toolName !== "rm_rf" },
    ],
    stats: () => Object.fromEntries(counts), // extras stay on the pack
  });
}

const hooks = new ToolHooks();
const counter = callCounter();
// use(pack, options): priority, onError and timeoutMs replace each hook's own; tools and agents narrow them further.
const off = hooks.use(counter, { tools: "web_*", priority: 5 });
console.log(hooks.list().map((h) => `${h.name} p${h.priority} from ${h.pack}`));
// ["call-counter:count p5 from call-counter", "call-counter p5 from call-counter", "call-counter:before#2 p5 from call-counter"]

await hooks.invoke(defineTool({ name: "web_search", execute: () => "ok" }), {});
console.log(counter.stats()); // { web_search: 1 }
off(); // or hooks.remove(counter)

// options.name renames the pack in names: two uses of one factory stay apart in traces and list().
hooks.use(callCounter(), { name: "search-calls", tools: "web_*" });
hooks.use(callCounter(), { name: "db-calls", tools: "db_*" });
console.log(hooks.list().map((h) => h.name));
// ["search-calls:count", "search-calls:callCounter", "search-calls:before#2",
//  "db-calls:count", "db-calls:callCounter", "db-calls:before#2"]
