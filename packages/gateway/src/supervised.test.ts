import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  ToolListChangedNotificationSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { GatewayEvent } from "./contract.js";
import { RESTART_DEFAULTS, type RestartPolicy } from "./restart-policy.js";
import { SupervisedTransport } from "./supervised.js";
import { textOf } from "./test-fixtures.js";

interface Proc {
  readonly server: McpServer;
  readonly levels: string[];
  readonly subscribed: string[];
}

// Each "process" is an SDK server on an in-memory pair; closing the server is the crash.
async function world(policy: Partial<RestartPolicy>, failStarts = 0) {
  const procs: Proc[] = [];
  let fails = failStarts;
  const make = () => {
    const [mine, theirs] = InMemoryTransport.createLinkedPair();
    if (procs.length > 0 && fails-- > 0) {
      mine.start = async () => {
        throw new Error("spawn ENOENT");
      };
      return mine;
    }
    const server = new McpServer(
      { name: "s", version: "1" },
      { capabilities: { logging: {}, resources: { subscribe: true } } },
    );
    const proc: Proc = { server, levels: [], subscribed: [] };
    server.registerTool("n", {}, async () => ({ content: [{ type: "text", text: String(procs.indexOf(proc)) }] }));
    server.registerTool("hang", {}, () => new Promise(() => undefined));
    server.server.setRequestHandler(SetLevelRequestSchema, async (r) => {
      proc.levels.push(r.params.level);
      return {};
    });
    server.server.setRequestHandler(ReadResourceRequestSchema, () => new Promise(() => undefined));
    server.server.setRequestHandler(SubscribeRequestSchema, async (r) => {
      proc.subscribed.push(r.params.uri);
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, async (r) => {
      proc.subscribed.splice(proc.subscribed.indexOf(r.params.uri), 1);
      return {};
    });
    procs.push(proc);
    void server.connect(theirs);
    return mine;
  };
  const events: GatewayEvent[] = [];
  const transport = new SupervisedTransport(make, {
    session: "s1",
    upstream: "u",
    policy: { ...RESTART_DEFAULTS, initialDelayMs: 0, jitter: 0, ...policy },
    emit: (e) => events.push(e),
  });
  const client = new Client({ name: "c", version: "1" });
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed++);
  await client.connect(transport);
  const until = async (type: GatewayEvent["type"], count = 1) => {
    while (events.filter((e) => e.type === type).length < count) await new Promise((r) => setTimeout(r, 5));
  };
  return { procs, transport, client, events, until, changed: () => changed };
}

const crash = (p: Proc | undefined) => p?.server.close();

describe("SupervisedTransport", () => {
  it("restarts with the session's initialize, log level and subscriptions, and tells the client the lists changed", async () => {
    const { procs, transport, client, until, changed } = await world({});
    await client.setLoggingLevel("debug");
    await client.subscribeResource({ uri: "memo://a" });
    await client.subscribeResource({ uri: "memo://b" });
    await client.unsubscribeResource({ uri: "memo://b" });
    const hanging = client.callTool({ name: "hang" });
    await new Promise((r) => setTimeout(r, 20));
    await crash(procs[0]);
    const result = await hanging;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('upstream "u" exited while the call was in flight; the call did not complete');
    await until("upstream-restarted");
    expect(transport.state).toBe("up");
    expect(procs[1]?.levels).toEqual(["debug"]);
    expect(procs[1]?.subscribed).toEqual(["memo://a"]);
    expect(textOf(await client.callTool({ name: "n" }))).toBe("1");
    await new Promise((r) => setTimeout(r, 10));
    expect(changed()).toBe(1);
    await client.close();
    expect(transport.state).toBe("closed");
  });

  it("answers a request in flight other than a call with an error naming the upstream", async () => {
    const { procs, client, events } = await world({ maxRestarts: 0 });
    const reading = client.readResource({ uri: "memo://slow" });
    await new Promise((r) => setTimeout(r, 20));
    await crash(procs[0]);
    await expect(reading).rejects.toThrow(/upstream "u" exited while the call was in flight/);
    expect(events.map((e) => e.type)).toEqual(["upstream-down"]);
    await client.close();
  });

  it("counts a failed start as a restart, and goes down past the budget; a call once the window has room restarts it", async () => {
    const { procs, client, events, until, transport } = await world({ maxRestarts: 2, windowMs: 150 }, 5);
    await crash(procs[0]);
    await until("upstream-down");
    expect(events.filter((e) => e.type === "upstream-restarting").map((e) => "reason" in e && e.reason)).toEqual([
      "exited",
      "could not be restarted: spawn ENOENT",
    ]);
    expect(transport.state).toBe("down");
    expect(textOf(await client.callTool({ name: "n" }))).toMatch(
      /^upstream "u" is down \(restarted 2 times within 150 ms\)/,
    );
    await new Promise((r) => setTimeout(r, 200));
    // Room again: this call finds it restarting (and the start fails once more, then works).
    expect(textOf(await client.callTool({ name: "n" }))).toMatch(/is restarting/);
    await until("upstream-down", 2);
    await new Promise((r) => setTimeout(r, 200));
    await client.callTool({ name: "n" });
    await until("upstream-restarted");
    expect(textOf(await client.callTool({ name: "n" }))).toBe("1");
    await client.close();
  });
});
