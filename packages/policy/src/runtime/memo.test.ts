import { Agent, Crew, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "./load.js";
import { loadedDoc, tool } from "./test-fixtures.js";

// A decision is kept and handed again to the calls that repeat it: these check that nothing of one call leaks
// into the next (who calls, its arguments), and that a kept decision cannot be changed by a hook.

const doc = loadedDoc([
  { name: "interns-no-write", match: { tools: ["write_*"], agents: ["intern"] }, decide: "deny", reason: "interns" },
  { name: "ops-crew", match: { tools: ["write_*"], crews: ["ops"] }, decide: "approve" },
  { name: "bots-no-write", match: { tools: ["write_*"], callers: ["bot"] }, decide: "deny", reason: "bots" },
  {
    name: "no-etc",
    match: { tools: ["write_*"], when: 'has(args.path) && args.path.startsWith("/etc")' },
    decide: "deny",
  },
  { name: "writers", match: { tools: ["write_*"] }, decide: "allow" },
]);

const agents = { intern: new Agent({ role: "intern" }), senior: new Agent({ role: "senior" }) };
const ops = new Crew({ name: "ops" });

function expected(agent: string | undefined, crew: boolean, caller: string | undefined, path: string): string {
  if (agent === "intern" || caller === "bot" || path.startsWith("/etc")) return "blocked";
  return crew ? "approve" : "ok";
}

describe("kept decisions", () => {
  it("decide each call by its own agent, crew, caller and arguments, whatever came before", async () => {
    let caller: string | undefined;
    const policy = await loadPolicy(doc, { caller: () => caller });
    const hooks = new ToolHooks({ humanInput: async () => "n" });
    hooks.use(policy);
    const write = tool("write_file");
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            agent: fc.constantFrom(undefined, "intern", "senior"),
            crew: fc.boolean(),
            caller: fc.constantFrom(undefined, "bot", "human"),
            path: fc.constantFrom("a.txt", "/etc/passwd"),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        async (calls) => {
          for (const c of calls) {
            caller = c.caller;
            const outcome = await hooks.invoke(
              write,
              { path: c.path },
              {
                ...(c.agent === undefined ? {} : { agent: agents[c.agent as keyof typeof agents] }),
                ...(c.crew ? { crew: ops } : {}),
              },
            );
            const want = expected(c.agent, c.crew, c.caller, c.path);
            // An approval the human refused blocks the call: the decision was "approve".
            if (want === "approve") {
              expect(outcome.status).toBe("blocked");
              expect(outcome.trace.some((e) => e.hook === "policy:ops-crew")).toBe(true);
            } else expect(outcome.status).toBe(want);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("hand every repeat the same frozen decision, which a hook cannot change, and count every call", async () => {
    const policy = await loadPolicy(doc);
    const hooks = new ToolHooks();
    hooks.use(policy);
    const seen: unknown[] = [];
    hooks.after((ctx) => {
      const d = policy.decisionOf(ctx);
      seen.push(d);
      expect(() => {
        (d as { effect: string }).effect = "allow";
      }).toThrow(TypeError);
      expect(() => (d as unknown as { matched: string[] }).matched.push("x")).toThrow(TypeError);
    });
    const write = tool("write_file");
    for (let i = 0; i < 3; i++) {
      const o = await hooks.invoke(write, { path: "a.txt" }, { agent: agents.senior });
      expect(o.status).toBe("ok");
      expect(o.trace[0]?.hook).toBe("policy:writers");
    }
    expect(seen[0]).toBe(seen[2]);
    expect(seen[0]).toMatchObject({ rule: "writers", effect: "allow", matched: ["writers"] });
    const blocked = await hooks.invoke(write, { path: "a.txt" }, { agent: agents.intern });
    expect(blocked.status).toBe("blocked");
    expect(blocked.trace.map((e) => e.hook)).toContain("policy:interns-no-write");
    const c = policy.counters();
    expect(c.calls).toBe(4);
    expect(c.rules.writers).toMatchObject({ matched: 4 });
    expect(c.rules["interns-no-write"]).toMatchObject({ matched: 1, denied: 1 });
  });
});
