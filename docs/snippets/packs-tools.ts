// snippet: packs-tools.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { cache } from "@toolware/packs/cache";
import { rateLimit } from "@toolware/packs/rate-limit";
import { retry } from "@toolware/packs/retry";

const search = defineTool({
  name: "web_search",
  tags: ["read_only", "paid"],
  execute: ({ query }: { query: string }) => `results for ${query}`,
});
const deleteFile = defineTool({ name: "delete_file", destructive: true, execute: () => "deleted" });

const hooks = new ToolHooks();
hooks.use(cache({ tools: { tag: "read_only" }, ttl: "10m" })); // every read-only tool, whatever its name
hooks.use(retry({ tools: { destructive: false } })); // never re-runs a tool that changes data
hooks.use(rateLimit({ max: 10, per: "1m", tools: [{ tag: "paid" }, "db_*"] })); // one entry is enough
hooks.use(approval({ tools: [deleteFile, "send_email"] })); // tool objects and names mix too

console.log((await hooks.invoke(search, { query: "toolware" })).result); // results for toolware
console.log((await hooks.invoke(deleteFile, { path: "a.txt" })).status); // blocked: nobody can approve here
