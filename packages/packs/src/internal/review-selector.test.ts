// Adversarial probes of the shared `tools` selector (docs/packs.md, "Choosing tools"), through each pack's entry.
import { defineTool, type Pack, type Tool, ToolHooks, toolwareCode } from "@toolware/core";
import { analytics } from "@toolware/packs/analytics";
import { approval } from "@toolware/packs/approval";
import { cache } from "@toolware/packs/cache";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { debugLog } from "@toolware/packs/debug-log";
import { loopGuard } from "@toolware/packs/loop-guard";
import { rateLimit } from "@toolware/packs/rate-limit";
import { retry } from "@toolware/packs/retry";
import { timeout } from "@toolware/packs/timeout";
import { queryRules, safePath, type ToolSelector } from "@toolware/packs/validate";
import { describe, expect, it } from "vitest";

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const MAKERS: Record<string, (tools: ToolSelector) => Pack> = {
  cache: (tools) => cache({ tools }),
  retry: (tools) => retry({ retries: 1, minDelayMs: 0, tools }),
  rateLimit: (tools) => rateLimit({ max: 1, per: "1m", tools }),
  loopGuard: (tools) => loopGuard({ maxRepeats: 2, action: "block", tools }),
  circuitBreaker: (tools) => circuitBreaker({ failureThreshold: 1, tools }),
  timeout: (tools) => timeout({ ms: 1000, tools }),
  analytics: (tools) => analytics({ tools }),
  debugLog: (tools) => debugLog({ logger: quiet, tools }),
  approval: (tools) => approval({ tools }),
  queryRules: (tools) => queryRules({ tools, field: "query", minLength: 3 }),
  safePath: (tools) => safePath({ tools, fields: ["path"], root: "/srv" }),
};

class Matcher {
  constructor(readonly tag: string) {}
}

// Each of these is a typo or a wrong value: none may be taken as "no tools" or "every tool".
const MALFORMED: [string, unknown][] = [
  ["{ tags }", { tags: "x" }],
  ["{ tag: 5 }", { tag: 5 }],
  ["{ Tag }", { Tag: "x" }],
  ["{ destructve }", { destructve: true }],
  ["{}", {}],
  ["[]", []],
  ['""', ""],
  ['"  "', "  "],
  ["[{ tags }]", ["web_search", { tags: ["x"] }]],
  ["[[]]", [[]]],
  ["[5]", [5]],
  ["null", null],
  ["5", 5],
  ["true", true],
  ["a class instance with a tag", new Matcher("x")],
  ["an inherited tag", Object.create({ tag: "x" })],
  ["a Date", new Date(0)],
  ["a Map", new Map([["tag", "x"]])],
];

function setupError(make: () => unknown): unknown {
  try {
    const pack = make() as Pack;
    new ToolHooks().use(pack);
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("a malformed tools selector", () => {
  it.each(Object.entries(MAKERS))("%s refuses every one at setup with a code", (_, make) => {
    const accepted: string[] = [];
    for (const [label, bad] of MALFORMED) {
      const error = setupError(() => make(bad as ToolSelector));
      const code = toolwareCode(error);
      if (error === undefined || code === undefined) accepted.push(`${label}: ${String(error)}`);
      else if (!(error instanceof TypeError)) accepted.push(`${label}: not a TypeError`);
    }
    expect(accepted).toEqual([]);
  });
});

function hostileTool(name: string, facts: PropertyDescriptorMap): { tool: Tool<never, unknown>; runs: () => number } {
  let runs = 0;
  const tool = Object.defineProperties(
    {
      name,
      description: "probe",
      execute: async () => {
        runs++;
        return "done";
      },
    },
    facts,
  );
  return { tool: tool as unknown as Tool<never, unknown>, runs: () => runs };
}

// The core checks a tool's fields once at invoke; metadata that changes after that check reaches the packs.
function afterFirst(good: unknown, then: () => unknown): PropertyDescriptor {
  let reads = 0;
  return { get: () => (reads++ === 0 ? good : then()), enumerable: true };
}
const boom = (): never => {
  throw new Error("boom");
};
const HOSTILE: [string, () => PropertyDescriptorMap][] = [
  ["tags getter that throws", () => ({ tags: afterFirst(["y"], boom) })],
  ["tags turning into a string", () => ({ tags: afterFirst(["y"], () => "x") })],
  ["tags turning into an array-like", () => ({ tags: afterFirst(["y"], () => ({ 0: "x", length: 1 })) })],
  [
    "tags a Proxy that throws after the core's look",
    () => {
      let armed = false;
      const tags = new Proxy(["y"], {
        get(target, key, receiver) {
          if (armed) throw new Error("trap");
          return Reflect.get(target, key, receiver);
        },
      });
      return {
        tags: afterFirst(tags, () => {
          armed = true;
          return tags;
        }),
      };
    },
  ],
  ["destructive getter that throws", () => ({ destructive: afterFirst(false, boom) })],
];

describe("hostile tool metadata", () => {
  it.each(Object.entries(MAKERS))("%s: invoke resolves", async (_, make) => {
    const rejected: string[] = [];
    for (const [label, facts] of HOSTILE) {
      for (const selector of [{ tag: "x" }, { destructive: true }, ["other", { tag: "x" }]] as ToolSelector[]) {
        const hooks = new ToolHooks({ humanInput: () => "yes" });
        hooks.use(make(selector));
        const probe = hostileTool("web_search", facts());
        try {
          await hooks.invoke(probe.tool, { query: "abcd", path: "a" });
        } catch (e) {
          rejected.push(`${label} ${JSON.stringify(selector)}: ${String(e)}`);
        }
      }
    }
    expect(rejected).toEqual([]);
  });

  // A guard that cannot read whether a tool is selected must act as if it were.
  const GUARDS: [string, (tools: ToolSelector) => Pack][] = [
    ["approval", (tools) => approval({ tools })],
    ["queryRules", (tools) => queryRules({ tools, field: "query", minLength: 3 })],
    ["safePath", (tools) => safePath({ tools, fields: ["path"], root: "/srv" })],
  ];
  const UNREADABLE: [ToolSelector, string][] = [
    [{ tag: "x" }, "tags getter that throws"],
    [{ tag: "x" }, "tags a Proxy that throws after the core's look"],
    [{ tag: "destructive" }, "destructive getter that throws"],
    [{ destructive: true }, "destructive getter that throws"],
    [{ destructive: false }, "destructive getter that throws"],
  ];
  it.each(GUARDS)("%s fails closed when the facts it selects on cannot be read", async (_, make) => {
    const open: string[] = [];
    for (const [selector, label] of UNREADABLE) {
      const facts = HOSTILE.find(([l]) => l === label)?.[1];
      if (facts === undefined) throw new Error(`no hostile case ${label}`);
      const hooks = new ToolHooks({ humanInput: () => "no" });
      hooks.use(make(selector));
      const probe = hostileTool("web_search", facts());
      const outcome = await hooks.invoke(probe.tool, { query: "a", path: "../../etc/passwd" });
      if (probe.runs() !== 0 || outcome.status === "ok") open.push(`${JSON.stringify(selector)} ${label}`);
    }
    expect(open).toEqual([]);
  });
});

describe("{ tag } and { destructive } match as documented", () => {
  it("a tag in a frozen tool's tags, and destructive: true as the tag destructive", async () => {
    const cases: [ToolSelector, { tags?: string[]; destructive?: boolean }, boolean][] = [
      [{ tag: "search" }, { tags: ["Search"] }, true],
      [{ tag: "search" }, { tags: ["research"] }, false],
      [{ tag: "destructive" }, { destructive: true }, true],
      [{ destructive: true }, { tags: ["destructive"] }, false],
      [{ destructive: false }, {}, true],
      [{ destructive: false }, { destructive: true }, false],
    ];
    for (const [selector, facts, expected] of cases) {
      let runs = 0;
      const t = defineTool({ name: "probe_tool", ...facts, execute: async () => ++runs });
      const hooks = new ToolHooks();
      hooks.use(rateLimit({ max: 1, per: "1m", tools: selector }));
      await hooks.invoke(t, {});
      const second = await hooks.invoke(t, {});
      expect(second.status === "blocked", `${JSON.stringify(selector)} ${JSON.stringify(facts)}`).toBe(expected);
    }
  });
});
