// snippet: scaling-2.ts
import type { Task, ToolCallHookContext } from "@toolware/core";
import { cache } from "@toolware/packs/cache";
import { redisCacheStore } from "@toolware/redis";
import { Redis } from "ioredis";

// The application knows which customer each task works for.
const tenantOfTask = new WeakMap<Task, string>();

// Without `scope`, a result fetched for one tenant is served to any other that asks the same question.
export const accounts = cache({
  tools: ["get_account", "list_invoices"],
  ttl: "1m",
  store: redisCacheStore({ client: new Redis() }),
  // A function that throws or returns no string makes the call skip the cache: it never shares.
  scope: (ctx: ToolCallHookContext) => {
    const tenant = ctx.task === undefined ? undefined : tenantOfTask.get(ctx.task);
    if (tenant === undefined) throw new Error("call without a tenant");
    return tenant;
  },
});
