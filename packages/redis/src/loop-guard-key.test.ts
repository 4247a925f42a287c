// A loop guard whose `key` names the scope (a gateway's client or upstream), shared by two guards through Redis.
import { defineTool, type ToolCallHookContext, ToolHooks } from "@toolware/core";
import { loopGuard } from "@toolware/packs/loop-guard";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisLoopGuardStore } from "./index.js";
import { type RedisServer, startRedis } from "./test-utils.js";

let server: RedisServer;
const connections: Redis[] = [];

beforeAll(async () => {
  server = await startRedis();
}, 30_000);
afterAll(async () => {
  for (const c of connections) c.disconnect();
  await server?.stop();
});

describe("redisLoopGuardStore with a key function", () => {
  it("keeps each name's streak apart, and shares it between instances", async () => {
    const prefix = `key-${Date.now()}:`;
    const search = defineTool({ name: "search", execute: () => "r" });
    const instance = () => {
      const client = new Redis(server.port, "127.0.0.1");
      connections.push(client);
      const hooks = new ToolHooks();
      const guard = loopGuard({
        maxRepeats: 2,
        action: "block",
        key: (ctx: ToolCallHookContext) => (ctx.toolInput as { who: string }).who,
        store: redisLoopGuardStore({ client, prefix }),
        onWarn: () => {},
      });
      hooks.use(guard);
      return { call: async (who: string) => (await hooks.invoke(search, { who })).status, guard };
    };
    const a = instance();
    const b = instance();
    // A name with braces and a colon: the Redis key stays its own.
    expect([await a.call("alice"), await b.call("bob"), await a.call("a}b:c")]).toEqual(["ok", "ok", "ok"]);
    expect([await b.call("alice"), await a.call("bob"), await b.call("a}b:c")]).toEqual([
      "blocked",
      "blocked",
      "blocked",
    ]);
    expect((await a.guard.history("alice")).map((e) => e.toolName)).toEqual(["search"]);
    await b.guard.reset("alice");
    expect(await a.call("alice")).toBe("ok");
    expect(await a.call("bob")).toBe("blocked");
  });
});
