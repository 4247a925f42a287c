import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolHooks } from "@toolware/core";
import { type PolicyApi, type WatchedPolicyPack, watchPolicy } from "@toolware/policy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFeatureServer } from "./e2e/upstream-fixture.js";
import { hiddenByPolicy } from "./hidden.js";
import { createGateway, type Gateway } from "./index.js";
import { textOf } from "./test-fixtures.js";

const policyText = (denied: readonly string[]) =>
  `version: 1\nname: hidden\ndefault: allow\nrules:\n  - name: denied\n    match: { tools: [${denied.join(", ")}] }\n    decide: deny\n    reason: not here\n`;

describe("which tools the policy hides is worked out once per tool and policy version, not on every call", () => {
  let upstream: Awaited<ReturnType<typeof startFeatureServer>>;
  let policy: WatchedPolicyPack;
  let gateway: Gateway;
  let file: string;
  const client = new Client({ name: "hidden-test", version: "1.0.0" });
  let explained = 0;

  beforeAll(async () => {
    upstream = await startFeatureServer();
    file = join(mkdtempSync(join(tmpdir(), "toolware-hidden-")), "toolware.policy.yaml");
    writeFileSync(file, policyText(["wipe"]));
    policy = await watchPolicy(file, { debounceMs: 10 });
    const hooks = new ToolHooks();
    hooks.use(policy);
    // The real policy, with its explanations counted.
    const counted: Pick<PolicyApi, "explain" | "version"> = {
      explain: (call) => {
        explained++;
        return policy.explain(call);
      },
      version: () => policy.version(),
    };
    gateway = createGateway({ upstreams: [{ name: "features", url: upstream.url }], hooks, policy: counted });
    await gateway.start();
    const [a, b] = InMemoryTransport.createLinkedPair();
    await gateway.connect(a);
    await client.connect(b);
  });

  afterAll(async () => {
    await client.close();
    await gateway.close();
    policy.close();
    await upstream.close();
  });

  it("asks the policy once per tool however many calls follow", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("echo");
    expect(names).not.toContain("wipe");
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "one" } }))).toBe("one");
    const after = explained;
    for (let i = 0; i < 10; i++) {
      expect(textOf(await client.callTool({ name: "echo", arguments: { text: `n${i}` } }))).toBe(`n${i}`);
    }
    expect(explained).toBe(after);
    const hidden = await client.callTool({ name: "wipe", arguments: {} });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toBe('Tool "wipe" not found');
  });

  it("asks again once the policy is reloaded: a tool denied by the edit is hidden from the next call", async () => {
    const version = policy.version();
    writeFileSync(file, policyText(["wipe", "echo"]));
    await expect.poll(() => policy.version(), { timeout: 10_000 }).toBeGreaterThan(version);
    const refused = await client.callTool({ name: "echo", arguments: { text: "x" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('Tool "echo" not found');
  });
});

describe("a policy that tells no version", () => {
  it("is asked on every check, so an edit it makes is never missed", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "toolware-hidden-")), "toolware.policy.yaml");
    writeFileSync(file, policyText(["wipe"]));
    const policy = await watchPolicy(file);
    try {
      let asked = 0;
      const explain: PolicyApi["explain"] = (call) => {
        asked++;
        return policy.explain(call);
      };
      const wipe = { name: "wipe", inputSchema: { type: "object" as const } };
      for (const subject of [{ explain }, { explain, version: () => "one" }]) {
        asked = 0;
        const hidden = hiddenByPolicy(subject as Pick<PolicyApi, "explain">);
        expect([hidden(wipe), hidden(wipe), hidden({ ...wipe, name: "echo" })]).toEqual([true, true, false]);
        expect(asked).toBe(3);
      }
    } finally {
      policy.close();
    }
  });
});
