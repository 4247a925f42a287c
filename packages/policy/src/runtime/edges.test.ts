import { mkdtempSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolHooks } from "@toolware/core";
import { memoryCircuitStore } from "@toolware/packs/circuit-breaker";
import { memoryLoopGuardStore } from "@toolware/packs/loop-guard";
import { memoryRateLimitStore } from "@toolware/packs/rate-limit";
import { describe, expect, it } from "vitest";
import { compileCondition } from "./cel.js";
import type { PolicyEvent } from "./events.js";
import { loadPolicy } from "./load.js";
import { loadedDoc, tool } from "./test-fixtures.js";
import { watchPolicy } from "./watch.js";

function fileWith(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "toolware-policy-edge-"));
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe("a watched policy runs its packs with the core's rules", () => {
  it("narrows by a pack's own tools, replaces results, blocks on false, retries and reloads", async () => {
    const file = fileWith(
      "p.yaml",
      `version: 1
default: allow
rules:
  - name: limits
    match: { tools: ["api_*"] }
    packs:
      rate-limit: { max: 1, per: 1m, tools: [api_write] }
      redact: {}
      retry: { retries: 1, minDelayMs: 1, maxDelayMs: 2 }
`,
    );
    const policy = await watchPolicy(file, { debounceMs: 0 });
    policy.close();
    const hooks = new ToolHooks();
    hooks.use(policy);
    const write = tool("api_write");
    expect((await hooks.invoke(write, {})).status).toBe("ok");
    const limited = await hooks.invoke(write, {});
    expect(limited.status).toBe("blocked");
    // api_read is not in the rate limit's own list: never limited.
    for (let i = 0; i < 3; i++) expect((await hooks.invoke(tool("api_read"), {})).status).toBe("ok");
    const secret = { ...tool("api_secret"), execute: () => "token sk-abcdefghijklmnopqrstuvwx123456" };
    expect((await hooks.invoke(secret, {})).result).not.toContain("sk-abcdefghijklmnopqrstuvwx123456");
    let runs = 0;
    const flaky = {
      ...tool("api_flaky"),
      execute: () => {
        runs++;
        if (runs === 1) throw new Error("once");
        return "second time";
      },
    };
    expect((await hooks.invoke(flaky, {})).status).toBe("ok");
    expect(runs).toBe(2);
    // The rate limit's state survives a reload that leaves the rule's packs as they were.
    await writeFile(
      file,
      `${await import("node:fs/promises").then((f) => f.readFile(file, "utf8"))}  - name: extra\n    decide: allow\n`,
    );
    expect(await policy.reload()).toBe(true);
    expect((await hooks.invoke(write, {})).status).toBe("blocked");
  });
});

describe("loadPolicy: sources, stores and listeners", () => {
  it("takes a document object (checked by the loader) and refuses what is not one", async () => {
    const policy = await loadPolicy({
      version: 1,
      default: "deny",
      rules: [{ name: "ok", match: { tools: ["ls"] }, decide: "allow" }],
    });
    const hooks = new ToolHooks();
    hooks.use(policy);
    expect((await hooks.invoke(tool("ls"), {})).status).toBe("ok");
    expect((await hooks.invoke(tool("rm"), {})).reason).toBe("the policy denies calls no rule allows");
    await expect(loadPolicy(42 as never)).rejects.toThrow(/file path or a policy object/);
    await expect(loadPolicy({ version: 1, defualt: "deny", rules: [] } as never)).rejects.toThrow(/default/);
  });

  it("uses injected stores, and a Redis store named in the file only when one is injected", async () => {
    const rateLimit = memoryRateLimitStore();
    const doc = loadedDoc(
      [
        {
          name: "limited",
          packs: {
            "rate-limit": { max: 5, per: 60_000 },
            "loop-guard": { maxRepeats: 50 },
            "circuit-breaker": { failureThreshold: 5 },
          },
        },
      ],
      { stores: { default: "redis://127.0.0.1:6379" } },
    );
    const policy = await loadPolicy(doc, {
      stores: { rateLimit, loopGuard: memoryLoopGuardStore(), circuitBreaker: memoryCircuitStore() },
    });
    const hooks = new ToolHooks();
    hooks.use(policy);
    expect((await hooks.invoke(tool("x"), {})).status).toBe("ok");
    await expect(loadPolicy(doc, { stores: { rateLimit } })).rejects.toThrow(/redisLoopGuardStore/);
  });

  it("checks the options' types", async () => {
    await expect(loadPolicy(loadedDoc([]), null as never)).rejects.toThrow(/must be an object/);
    await expect(loadPolicy(loadedDoc([]), { priority: Number.NaN })).rejects.toThrow(/priority/);
    await expect(loadPolicy(loadedDoc([]), { stores: 1 } as never)).rejects.toThrow(/stores/);
    await expect(loadPolicy(loadedDoc([]), { stores: { cache: "x" } } as never)).rejects.toThrow(/store object/);
    await expect(loadPolicy(loadedDoc([]), { [Symbol("x")]: 1 } as never)).rejects.toThrow(/unknown option/);
  });

  it("on() hears decisions until unregistered; a failing listener is reported, never changes the call", async () => {
    const reported: string[] = [];
    const policy = await loadPolicy(loadedDoc([{ name: "no", decide: "deny" }]));
    const hooks = new ToolHooks({ onListenerError: (where) => reported.push(where) });
    hooks.use(policy);
    const seen: PolicyEvent[] = [];
    const off = policy.on((e) => seen.push(e));
    policy.on(() => {
      throw new Error("listener broke");
    });
    expect((await hooks.invoke(tool("t"), {})).status).toBe("blocked");
    expect(seen.map((e) => e.type)).toEqual(["decision"]);
    expect(reported).toContain("policy.onEvent");
    expect(off()).toBe(true);
    await hooks.invoke(tool("t"), {});
    expect(seen).toHaveLength(1);
    expect(() => policy.on("x" as never)).toThrow(/listener function/);
  });

  it("validate takes only safePath and query from a file", async () => {
    await expect(loadPolicy(loadedDoc([{ name: "v", packs: { validate: { requireSchema: true } } }]))).rejects.toThrow(
      /Standard Schemas/,
    );
  });

  it("reads a Cedar section from a file next to the policy, and says when it cannot", async () => {
    const cedar = fileWith("p.cedar", 'forbid(principal, action, resource == Tool::"rm");');
    const policy = await loadPolicy(loadedDoc([], { cedar: { file: "p.cedar" } }, join(cedar, "..", "p.yaml")));
    const hooks = new ToolHooks();
    hooks.use(policy);
    expect((await hooks.invoke(tool("rm"), {})).status).toBe("blocked");
    await expect(
      loadPolicy(loadedDoc([], { cedar: { file: "missing.cedar" } }, join(cedar, "..", "p.yaml"))),
    ).rejects.toThrow(/cannot read missing\.cedar/);
  });
});

describe("CEL: patterns and expressions of every shape", () => {
  it("accepts escaped and bracketed patterns, and walks lists, maps and conditionals", () => {
    expect(() => compileCondition('args.p.matches("^[(+*]\\\\(x\\\\)+$")')).not.toThrow();
    expect(() => compileCondition('args.p.matches("^(ab)+$")')).not.toThrow();
    expect(() => compileCondition('args.p.matches("^((a)+)$")')).not.toThrow();
    const c = compileCondition(
      'args.p in ["a", "b"] && {"k": args.q}["k"] == 1 && -args.n < 0 && (args.b ? true : false)',
    );
    expect(c.keys).toEqual(["p", "q", "n", "b"]);
    const facts = { tool: { name: "t", tags: [], destructive: false }, agent: "", crew: "", caller: "" };
    expect(c.evaluate({ ...facts, args: { p: "a", q: 1, n: 2, b: true } })).toBe(true);
    expect(() => compileCondition(7 as never)).toThrow(/string of CEL/);
    expect(() => compileCondition("args.x.exists(y, y.matches(args.z))")).toThrow(/string literal/);
  });
});

describe("the dispatcher of a watched policy: failing hooks", () => {
  it("blocks on a failing hook (fail closed) and names it in the reason", async () => {
    const file = fileWith(
      "p.yaml",
      `version: 1
default: allow
rules:
  - name: limited
    match: { tools: [t] }
    packs:
      timeout: { ms: 20 }
`,
    );
    const policy = await watchPolicy(file, { debounceMs: 0 });
    policy.close();
    const hooks = new ToolHooks();
    hooks.use(policy);
    const slow = { ...tool("t"), execute: () => new Promise((r) => setTimeout(() => r("late"), 200)) };
    const out = await hooks.invoke(slow, {});
    expect(out.status).not.toBe("ok");
    expect(out.result).toMatch(/timed out|20 ms/);
  });
});
