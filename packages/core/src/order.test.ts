import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Agent, Crew, defineTool, type HookRegistry, ToolHooks } from "./index.js";

function setup() {
  const hooks = new ToolHooks();
  const agent = new Agent({ role: "worker" });
  const crew = new Crew({ agents: [agent] });
  const log: string[] = [];
  const layers: Record<string, HookRegistry> = { global: hooks, crew, agent };
  const before = (layer: string, name: string, priority = 0, block = false) =>
    layers[layer]?.before(
      () => {
        log.push(`in:${name}`);
        return block ? false : undefined;
      },
      { name, priority },
    );
  const after = (layer: string, name: string, priority = 0) =>
    layers[layer]?.after(
      (ctx) => {
        log.push(`out:${name}${ctx.status === "blocked" ? "(blocked)" : ""}`);
      },
      { name, priority },
    );
  const mw = (layer: string, name: string, priority = 0) =>
    layers[layer]?.use(
      async (_ctx, next) => {
        log.push(`in:${name}`);
        await next();
        log.push(`out:${name}`);
      },
      { name, priority },
    );
  const run = () => hooks.invoke(defineTool({ name: "probe", execute: () => log.push("tool") }), {}, { agent, crew });
  return { hooks, agent, crew, log, before, after, mw, run };
}

describe("order with one layer (CrewAI parity)", () => {
  it("runs before-hooks and after-hooks in registration order", async () => {
    const s = setup();
    s.before("global", "b1");
    s.after("global", "a1");
    s.before("global", "b2");
    s.after("global", "a2");
    await s.run();
    expect(s.log).toEqual(["in:b1", "in:b2", "tool", "out:a1", "out:a2"]);
  });

  it("lets every after-hook see a block, and skips later before-hooks and the tool", async () => {
    const s = setup();
    s.before("global", "b1", 0, true);
    s.before("global", "b2");
    s.after("global", "a1");
    const outcome = await s.run();
    expect(s.log).toEqual(["in:b1", "out:a1(blocked)"]);
    expect(outcome.status).toBe("blocked");
  });

  it("puts middlewares and before-hooks of one layer in registration order (first is outermost)", async () => {
    const s = setup();
    s.mw("global", "m1");
    s.before("global", "b1");
    s.mw("global", "m2");
    s.after("global", "a1");
    await s.run();
    expect(s.log).toEqual(["in:m1", "in:b1", "in:m2", "tool", "out:m2", "out:m1", "out:a1"]);
  });
});

describe("order across layers", () => {
  it("puts global outside crew outside agent, with after-hooks of all layers around the rest", async () => {
    const s = setup();
    s.before("agent", "agentB");
    s.after("agent", "agentA");
    s.before("crew", "crewB");
    s.after("crew", "crewA");
    s.before("global", "g1");
    s.before("global", "g2");
    s.after("global", "ga1");
    s.after("global", "ga2");
    s.mw("crew", "crewM");
    await s.run();
    expect(s.log).toEqual([
      "in:g1",
      "in:g2",
      "in:crewB",
      "in:crewM",
      "in:agentB",
      "tool",
      "out:crewM",
      "out:agentA",
      "out:crewA",
      "out:ga1",
      "out:ga2",
    ]);
  });

  it("lets an agent block seen by the after-hooks of every layer", async () => {
    const s = setup();
    s.after("global", "ga");
    s.after("crew", "ca");
    s.before("agent", "deny", 0, true);
    s.after("agent", "aa");
    await s.run();
    expect(s.log).toEqual(["in:deny", "out:aa(blocked)", "out:ca(blocked)", "out:ga(blocked)"]);
  });
});

describe("priority", () => {
  it("runs higher priority further out, whatever the layer and registration order", async () => {
    const s = setup();
    s.before("global", "low", -1);
    s.before("global", "mid");
    s.mw("agent", "agentHigh", 5);
    s.after("crew", "crewAfterHigh", 10);
    s.after("global", "afterLow", -5);
    await s.run();
    expect(s.log).toEqual([
      "in:agentHigh",
      "in:mid",
      "in:low",
      "tool",
      "out:afterLow",
      "out:agentHigh",
      "out:crewAfterHigh",
    ]);
  });

  it("lets a higher-priority before-hook block past a lower-priority after-hook", async () => {
    const s = setup();
    s.after("global", "audit");
    s.before("global", "gate", 1, true);
    s.after("global", "outerAudit", 2);
    await s.run();
    expect(s.log).toEqual(["in:gate", "out:outerAudit(blocked)"]);
  });
});

/* A reference interpreter of the ordering contract, checked against the engine on generated stacks. */

type Spec = {
  kind: "before" | "after";
  layer: 0 | 1 | 2;
  priority: number;
  act: "none" | "block" | "rewrite" | "mutate";
};

function model(specs: Spec[]): { log: string[]; status: string; result: string } {
  const indexed = specs.map((s, seq) => ({ ...s, seq }));
  const outerFirst = [...indexed].sort((a, b) => {
    if (a.priority !== b.priority) return b.priority - a.priority;
    const ga = a.kind === "after" ? 0 : 1;
    const gb = b.kind === "after" ? 0 : 1;
    if (ga !== gb) return ga - gb;
    if (a.layer !== b.layer) return a.layer - b.layer;
    return a.kind === "after" ? b.seq - a.seq : a.seq - b.seq;
  });
  const log: string[] = [];
  const pending: typeof indexed = [];
  let blocked = false;
  let n = 0;
  for (const h of outerFirst) {
    if (h.kind === "after") {
      pending.push(h);
      continue;
    }
    log.push(`in:${h.seq}`);
    if (h.act === "mutate") n++;
    if (h.act === "block") {
      blocked = true;
      break;
    }
  }
  let result = blocked ? "Tool execution blocked by hook. Tool: probe" : `n=${n}`;
  if (!blocked) log.push("tool");
  for (const h of pending.reverse()) {
    log.push(`out:${h.seq}`);
    if (h.act === "rewrite") result = `${result}+${h.seq}`;
  }
  return { log, status: blocked ? "blocked" : "ok", result };
}

async function engine(specs: Spec[], variant: "sync" | "async" | "unfused") {
  const hooks = new ToolHooks();
  const agent = new Agent({ role: "worker" });
  const crew = new Crew({ agents: [agent] });
  const layers: HookRegistry[] = [hooks, crew, agent];
  const log: string[] = [];
  const wrap = <T>(v: T): T | Promise<T> => (variant === "async" ? Promise.resolve(v) : v);
  specs.forEach((s, seq) => {
    const layer = layers[s.layer] as HookRegistry;
    if (s.kind === "before") {
      layer.before(
        (ctx) => {
          log.push(`in:${seq}`);
          if (s.act === "mutate") ctx.toolInput.n = (ctx.toolInput.n as number) + 1;
          return wrap(s.act === "block" ? false : undefined);
        },
        { priority: s.priority },
      );
    } else {
      layer.after(
        (ctx) => {
          log.push(`out:${seq}`);
          return wrap(s.act === "rewrite" ? `${ctx.toolResult}+${seq}` : undefined);
        },
        { priority: s.priority },
      );
    }
    if (variant === "unfused") {
      // A pass-through middleware after every hook breaks each run of plain hooks into single steps.
      layer.use(async (_ctx, next) => next(), { priority: s.priority });
    }
  });
  const counter = defineTool({ name: "probe", execute: (input: { n: number }) => `n=${input.n}` });
  const outcome = await hooks.invoke(counter, { n: 0 }, { agent, crew });
  return { log: log.filter((l) => l !== "tool"), status: outcome.status, result: outcome.result, outcome };
}

const specArb = fc.record<Spec>({
  kind: fc.constantFrom("before", "after"),
  layer: fc.constantFrom(0, 1, 2),
  priority: fc.integer({ min: -1, max: 1 }),
  act: fc.constantFrom("none", "block", "rewrite", "mutate"),
});

describe("ordering contract, checked against a reference interpreter", () => {
  it("matches the model for generated stacks, fused, unfused and async alike", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(specArb, { maxLength: 12 }), async (specs) => {
        const expected = model(specs);
        const expectedLog = expected.log.filter((l) => l !== "tool");
        for (const variant of ["sync", "async", "unfused"] as const) {
          const got = await engine(specs, variant);
          expect(got.log).toEqual(expectedLog);
          expect(got.status).toBe(expected.status);
          expect(got.result).toBe(expected.result);
          const hookTrace = got.outcome.trace.filter((t) => t.kind !== "middleware");
          expect(hookTrace).toHaveLength(expectedLog.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
