import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolHooks } from "@toolware/core";
import { loadPolicy } from "@toolware/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway, type Gateway, type GatewayEvent } from "../index.js";
import { textOf } from "../test-fixtures.js";
import { hostileUpstream, inMemoryClient } from "./test-fixtures.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

describe("a hostile upstream (raw JSON-RPC over stdio) never crashes the gateway nor leaks into a session", () => {
  const upstream = hostileUpstream();
  const events: GatewayEvent[] = [];
  let gateway: Gateway;
  let one: Client;
  let two: Client;

  beforeAll(async () => {
    const policy = await loadPolicy({
      version: 1,
      name: "hostile",
      default: "allow",
      rules: [{ name: "no-deletes", match: { tools: ["delete_file"] }, decide: "deny", reason: "no deletes" }],
    });
    const hooks = new ToolHooks();
    hooks.use(policy);
    gateway = createGateway({
      upstreams: [upstream.config],
      hooks,
      policy,
      onEvent: (e) => void events.push(e),
    });
    await gateway.start();
    [one, two] = await Promise.all([inMemoryClient(gateway, "one"), inMemoryClient(gateway, "two")]);
  }, 30_000);
  afterAll(async () => {
    await Promise.allSettled([one?.close(), two?.close()]);
    await gateway.close();
  });

  const works = async (client: Client, text: string) =>
    expect(textOf(await client.callTool({ name: "echo", arguments: { text } }))).toBe(text);

  it("forwards a 5 MB result whole, and the next call works", async () => {
    const big = await one.callTool({ name: "huge", arguments: {} });
    expect(textOf(big)).toHaveLength(5 * 1024 * 1024);
    await works(one, "after huge");
  });

  it("answers a result of the wrong shape with an error, and the next call works", async () => {
    const bad = await one.callTool({ name: "malformed", arguments: {} });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).not.toContain("not a list");
    await works(one, "after malformed");
  });

  it("answers the call that came with lines that are not JSON-RPC, and serves the next one", async () => {
    // Whether the gateway drops such lines or restarts the upstream over them, the call gets a result, not a hang.
    const garbled = await one.callTool({ name: "garbage", arguments: {} });
    expect(garbled.isError === true || textOf(garbled) === "after garbage", textOf(garbled)).toBe(true);
    await expect
      .poll(async () => textOf(await one.callTool({ name: "echo", arguments: { text: "back" } })), { timeout: 15_000 })
      .toBe("back");
  }, 20_000);

  it("drops responses for ids nobody asked (and a second answer to one id): no leak to any session", async () => {
    const [a, b] = await Promise.all([
      one.callTool({ name: "stray", arguments: { text: "one" } }),
      two.callTool({ name: "stray", arguments: { text: "two" } }),
    ]);
    expect(textOf(a)).toBe("stray one");
    expect(textOf(b)).toBe("stray two");
    // the next calls of each session get their own answers, not the "LEAK" lines still in flight
    const next = await Promise.all([
      ...Array.from({ length: 5 }, (_, i) => one.callTool({ name: "echo", arguments: { text: `one ${i}` } })),
      ...Array.from({ length: 5 }, (_, i) => two.callTool({ name: "echo", arguments: { text: `two ${i}` } })),
    ]);
    expect(next.map(textOf)).toEqual([
      ...Array.from({ length: 5 }, (_, i) => `one ${i}`),
      ...Array.from({ length: 5 }, (_, i) => `two ${i}`),
    ]);
    expect(events.some((e) => e.type === "upstream-error")).toBe(true);
  });

  it("survives a flood of 50,000 notifications with bounded memory; the other session neither hears it nor waits", async () => {
    let heardOne = 0;
    let heardTwo = 0;
    one.setNotificationHandler(LoggingMessageNotificationSchema, async () => void heardOne++);
    two.setNotificationHandler(LoggingMessageNotificationSchema, async () => void heardTwo++);
    gc();
    const before = process.memoryUsage().heapUsed;
    const flooding = one.callTool({ name: "flood", arguments: { count: 50_000 } });
    await works(two, "during the flood");
    expect(textOf(await flooding)).toBe("flooded");
    await expect.poll(() => heardOne, { timeout: 30_000 }).toBe(50_000);
    await works(one, "after the flood");
    await works(two, "after the flood");
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(40 * 1024 * 1024);
    expect(heardTwo).toBe(0);
  }, 90_000); // about 3 s on an idle machine

  it("never ran a denied tool, and every session is still served", async () => {
    const denied = await two.callTool({ name: "delete_file", arguments: {} });
    expect(denied.isError).toBe(true);
    expect(upstream.ran()).not.toContain("delete_file");
    await works(one, "still");
    await works(two, "still");
  });
});
