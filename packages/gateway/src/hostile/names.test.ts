import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolHooks } from "@toolware/core";
import { loadPolicy } from "@toolware/policy";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway } from "../index.js";
import { textOf } from "../test-fixtures.js";
import { hostileUpstream, inMemoryClient } from "./test-fixtures.js";

const CYRILLIC: Record<string, string> = {
  a: "\u0430",
  e: "\u0435",
  o: "\u043e",
  i: "\u0456",
  s: "\u0455",
  c: "\u0441",
};
const INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"];

// One character of a name, disguised: another case, a Cyrillic twin, its fullwidth or mathematical-bold form (NFKC
// folds both back), or followed by an invisible character.
const disguise = (c: string) =>
  fc
    .constantFrom<(c: string) => string>(
      (x) => x,
      (x) => (x === x.toUpperCase() ? x.toLowerCase() : x.toUpperCase()),
      (x) => CYRILLIC[x] ?? x.toUpperCase(),
      (x) => String.fromCodePoint((x.codePointAt(0) ?? 0) + 0xfee0),
      (x) => (/[a-z]/.test(x) ? String.fromCodePoint(0x1d41a + (x.codePointAt(0) ?? 0) - 97) : x),
      (x) => `${x}${INVISIBLE[(x.codePointAt(0) ?? 0) % INVISIBLE.length]}`,
    )
    .map((f) => f(c));

const lookAlike = (name: string) =>
  fc
    .tuple(...[...name].map(disguise))
    .map((cs) => cs.join(""))
    .filter((n) => n !== name);

const SPECIAL = [
  "Delete_File",
  "DELETE_FILE",
  "delete_ﬁle",
  "delete_\u200dfile",
  "ｄｅｌｅｔｅ＿ｆｉｌｅ",
  "dеlete_file",
];

async function gatewayWith(hideDenied: boolean) {
  const a = hostileUpstream("a");
  const b = hostileUpstream("b");
  const policy = await loadPolicy({
    version: 1,
    name: "names",
    default: "allow",
    rules: [{ name: "no-deletes", match: { tools: ["delete_file"] }, decide: "deny", reason: "no deletes" }],
  });
  const hooks = new ToolHooks();
  hooks.use(policy);
  const gateway = createGateway({ upstreams: [a.config, b.config], hooks, policy, hideDenied });
  await gateway.start();
  const client = await inMemoryClient(gateway);
  return { gateway, client, ran: () => [...a.ran(), ...b.ran()] };
}

it("the hostile upstream itself is lenient: sent to it directly, a look-alike runs the denied tool", async () => {
  const { config, ran } = hostileUpstream("direct");
  const direct = new Client({ name: "direct", version: "1" });
  await direct.connect(
    new StdioClientTransport({ command: config.command, args: [...(config.args ?? [])], env: { ...config.env } }),
  );
  for (const name of SPECIAL) expect(textOf(await direct.callTool({ name, arguments: {} }))).toBe("deleted");
  expect(ran()).toHaveLength(SPECIAL.length);
  await direct.close();
});

for (const hideDenied of [true, false]) {
  describe(`a client naming a denied tool by another name (hideDenied: ${hideDenied})`, () => {
    let env: Awaited<ReturnType<typeof gatewayWith>>;
    beforeAll(async () => {
      env = await gatewayWith(hideDenied);
    }, 30_000);
    afterAll(async () => {
      await env?.client.close();
      await env?.gateway.close();
    });

    const refusedAsUnknown = async (name: string) => {
      const result = await env.client.callTool({ name, arguments: {} });
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).toBe(`Tool ${JSON.stringify(name)} not found`);
    };

    it("lists the denied tool only when hideDenied is off, and decides its exact name by the policy", async () => {
      const names = (await env.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("a__echo");
      expect(names.includes("a__delete_file")).toBe(!hideDenied);
      const exact = await env.client.callTool({ name: "a__delete_file", arguments: {} });
      expect(exact.isError).toBe(true);
      expect(textOf(exact)).toMatch(hideDenied ? /not found/ : /no deletes/);
    });

    it("answers unprefixed names as unknown when prefixes are on", async () => {
      for (const name of ["delete_file", "echo", "__delete_file", "a_delete_file", "a__", "b__a__delete_file"]) {
        await refusedAsUnknown(name);
      }
    });

    it("answers odd names as unknown: prototype keys, blanks, control characters, 100k characters", async () => {
      for (const name of [
        "__proto__",
        "constructor",
        "toString",
        "hasOwnProperty",
        "",
        " a__echo",
        "a__echo ",
        "a__echo\u0000",
      ]) {
        await refusedAsUnknown(name);
      }
      const long = await env.client.callTool({ name: `a__delete_file${"x".repeat(100_000)}`, arguments: {} });
      expect(long.isError).toBe(true);
      expect(textOf(long).length).toBeLessThan(300);
      for (const name of [42, null, { toString: "a__delete_file" }]) {
        await expect(env.client.callTool({ name, arguments: {} } as never)).rejects.toThrow();
      }
      await expect(env.client.callTool({ name: "a__echo", arguments: "rm -rf" } as never)).rejects.toThrow();
      expect(env.ran()).toEqual([]);
    });

    it("answers case and Unicode look-alikes as unknown (fast-check); the upstream never runs them", async () => {
      for (const name of SPECIAL) await refusedAsUnknown(`a__${name}`);
      await fc.assert(
        fc.asyncProperty(fc.oneof(lookAlike("a__delete_file"), lookAlike("b__delete_file")), refusedAsUnknown),
        { numRuns: 60 },
      );
      expect(env.ran()).toEqual([]);
      expect(textOf(await env.client.callTool({ name: "b__echo", arguments: { text: "ok" } }))).toBe("ok");
      expect(env.ran()).toEqual(["echo"]);
    }, 30_000);
  });
}
