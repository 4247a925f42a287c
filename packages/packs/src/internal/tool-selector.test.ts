// Every pack's `tools` option speaks one vocabulary: the same selector picks the same tools in each of them.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineTool, type Pack, type Tool, ToolHooks, ToolwareTypeError, toolwareCode } from "@toolware/core";
import { analytics } from "@toolware/packs/analytics";
import { approval } from "@toolware/packs/approval";
import { audit } from "@toolware/packs/audit";
import { cache } from "@toolware/packs/cache";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { forTools } from "@toolware/packs/conditional";
import { debugLog } from "@toolware/packs/debug-log";
import { loopGuard } from "@toolware/packs/loop-guard";
import { rateLimit } from "@toolware/packs/rate-limit";
import { retry } from "@toolware/packs/retry";
import { timeout } from "@toolware/packs/timeout";
import { queryRules, safePath, type ToolSelector } from "@toolware/packs/validate";
import { afterAll, describe, expect, it } from "vitest";

type Behaviour = "ok" | "fail" | "slow";

/** A tool that counts its runs and behaves as the probe needs. */
function tool(name: string, facts: { tags?: string[]; destructive?: boolean }, behaviour: Behaviour) {
  let runs = 0;
  const t = defineTool({
    name,
    ...facts,
    execute: async () => {
      runs++;
      if (behaviour === "fail") throw new Error("down");
      if (behaviour === "slow") await new Promise((resolve) => setTimeout(resolve, 60));
      return "done";
    },
  });
  return { tool: t as Tool<never, unknown>, runs: () => runs };
}

const INPUT = { query: "a", path: "../../etc/passwd" };
const dir = mkdtempSync(join(tmpdir(), "tool-selector-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

interface Subject {
  readonly prefix: string;
  readonly behaviour: Behaviour;
  /** Whether the pack made of `tools` acted on the calls of `probe`. */
  readonly applies: (tools: ToolSelector, probe: ReturnType<typeof tool>) => Promise<boolean>;
}

async function twice(pack: Pack, probe: ReturnType<typeof tool>) {
  const hooks = new ToolHooks();
  hooks.use(pack);
  return [await hooks.invoke(probe.tool, INPUT), await hooks.invoke(probe.tool, INPUT)];
}

const blockedOnce =
  (make: (tools: ToolSelector) => Pack) => async (tools: ToolSelector, probe: ReturnType<typeof tool>) =>
    (await twice(make(tools), probe)).some((o) => o.status === "blocked");

const SUBJECTS: Record<string, Subject> = {
  cache: {
    prefix: "toolware/cache",
    behaviour: "ok",
    applies: async (tools, probe) => {
      await twice(cache({ tools }), probe);
      return probe.runs() === 1;
    },
  },
  rateLimit: {
    prefix: "toolware/rate-limit",
    behaviour: "ok",
    applies: blockedOnce((tools) => rateLimit({ max: 1, per: "1m", tools })),
  },
  loopGuard: {
    prefix: "toolware/loop-guard",
    behaviour: "ok",
    applies: blockedOnce((tools) => loopGuard({ maxRepeats: 2, action: "block", tools })),
  },
  circuitBreaker: {
    prefix: "toolware/circuit-breaker",
    behaviour: "fail",
    applies: async (tools, probe) => {
      await twice(circuitBreaker({ failureThreshold: 1, tools }), probe);
      return probe.runs() === 1;
    },
  },
  retry: {
    prefix: "toolware/retry",
    behaviour: "fail",
    applies: async (tools, probe) => {
      const hooks = new ToolHooks();
      hooks.use(retry({ retries: 1, jitter: "none", minDelayMs: 0, tools }));
      await hooks.invoke(probe.tool, INPUT);
      return probe.runs() === 2;
    },
  },
  timeout: {
    prefix: "toolware/timeout",
    behaviour: "slow",
    applies: async (tools, probe) => {
      const hooks = new ToolHooks();
      hooks.use(timeout({ ms: 10, tools }));
      return toolwareCode((await hooks.invoke(probe.tool, INPUT)).error) === "TOOLWARE_TOOL_TIMEOUT";
    },
  },
  analytics: {
    prefix: "toolware/analytics",
    behaviour: "ok",
    applies: async (tools, probe) => {
      const usage = analytics({ tools });
      await twice(usage, probe);
      return usage.stats().totals.count > 0;
    },
  },
  debugLog: {
    prefix: "toolware/debug-log",
    behaviour: "ok",
    applies: async (tools, probe) => {
      const lines: unknown[] = [];
      const log = (first: unknown) => void lines.push(first);
      await twice(debugLog({ logger: { info: log, warn: log, error: log }, tools }), probe);
      return lines.length > 0;
    },
  },
  audit: {
    prefix: "toolware/audit",
    behaviour: "ok",
    applies: async (tools, probe) => {
      const file = join(dir, `audit-${files++}.jsonl`);
      const trail = audit({ file, tools });
      await twice(trail, probe);
      await trail.close();
      try {
        return readFileSync(file, "utf8").trim() !== "";
      } catch {
        return false;
      }
    },
  },
  approval: { prefix: "toolware/approval", behaviour: "ok", applies: blockedOnce((tools) => approval({ tools })) },
  queryRules: {
    prefix: "toolware/validate",
    behaviour: "ok",
    applies: blockedOnce((tools) => queryRules({ tools, field: "query", minLength: 3 })),
  },
  safePath: {
    prefix: "toolware/validate",
    behaviour: "ok",
    applies: blockedOnce((tools) => safePath({ tools, fields: ["path"], root: "/srv" })),
  },
  forTools: {
    prefix: "toolware/conditional",
    behaviour: "ok",
    applies: blockedOnce((tools) => forTools(tools as never).before(() => false)),
  },
};

// What each selector picks among three tools: tagged "search", destructive, and neither.
const SELECTORS: [string, ToolSelector, string[]][] = [
  ["a name", "web_search", ["web_search"]],
  ["{ tag }", { tag: "search" }, ["web_search"]],
  ["{ tag } in another spelling", { tag: "Search" }, ["web_search"]],
  ["{ destructive: true }", { destructive: true }, ["wipe_disk"]],
  ['{ tag: "destructive" } (the flag counts as a tag)', { tag: "destructive" }, ["wipe_disk"]],
  ["{ destructive: false }", { destructive: false }, ["web_search", "get_time"]],
  ["a name and a tag", ["get_time", { tag: "search" }], ["web_search", "get_time"]],
  ["a RegExp and a flag", [/^wipe/, { destructive: false }], ["web_search", "wipe_disk", "get_time"]],
  ["a glob and a tag nobody has", ["get_*", { tag: "billing" }], ["get_time"]],
];

const TOOLS: [string, { tags?: string[]; destructive?: boolean }][] = [
  ["web_search", { tags: ["search"] }],
  ["wipe_disk", { destructive: true }],
  ["get_time", {}],
];

describe("every pack's tools option", () => {
  it.each(Object.entries(SUBJECTS))("%s picks the tools each selector names", async (_, subject) => {
    const wrong: string[] = [];
    for (const [label, selector, picked] of SELECTORS) {
      for (const [name, facts] of TOOLS) {
        const applied = await subject.applies(selector, tool(name, { ...facts }, subject.behaviour));
        if (applied !== picked.includes(name)) wrong.push(`${label}: ${name} ${applied ? "picked" : "left out"}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each(Object.entries(SUBJECTS))(
    "%s refuses a malformed { tag } or { destructive } at setup",
    async (_, subject) => {
      for (const bad of [
        { tag: "" },
        { tag: 5 },
        [{ destructive: "yes" }],
        ["web_search", { tag: "x", destructive: true }],
      ]) {
        let error: unknown;
        try {
          await subject.applies(bad as never, tool("web_search", {}, subject.behaviour));
        } catch (e) {
          error = e;
        }
        expect(error, JSON.stringify(bad)).toBeInstanceOf(ToolwareTypeError);
        expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_OPTION");
        expect((error as Error).message.startsWith(`${subject.prefix}`)).toBe(true);
      }
    },
  );
});

describe("a selector without flags", () => {
  it("reaches the core as it is, so its names stay decided once per chain", () => {
    const names = ["web_search", /^db_/];
    for (const pack of [
      cache({ tools: names }),
      retry({ tools: names }),
      rateLimit({ max: 1, per: "1s", tools: names }),
    ]) {
      expect(pack.hooks[0]?.options?.tools).toBe(names);
    }
  });

  it("with a flag, becomes a predicate that a tool answers once", () => {
    const filter = cache({ tools: ["web_search", { tag: "search" }] }).hooks[0]?.options?.tools;
    expect(typeof filter).toBe("function");
  });
});
