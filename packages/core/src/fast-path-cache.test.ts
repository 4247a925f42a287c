import { describe, expect, it } from "vitest";
import { Agent, Crew, definePack, defineTool, ToolHooks } from "./index.js";

// The chain of the last call is kept in front of the chain maps: a hook added or removed since, on
// any layer, must show in the very next call with the same tool, agent and crew.

const echo = defineTool({ name: "echo", execute: () => "raw" });

function tagger(tag: string) {
  return (ctx: { toolResult: string | undefined }) => `${ctx.toolResult}+${tag}`;
}

describe("the one-entry chain cache", () => {
  it("serves a hook added to the app after a call, and drops it once removed", async () => {
    const hooks = new ToolHooks();
    expect((await hooks.invoke(echo)).result).toBe("raw");
    const off = hooks.after(tagger("g"));
    expect((await hooks.invoke(echo)).result).toBe("raw+g");
    expect(off()).toBe(true);
    expect((await hooks.invoke(echo)).result).toBe("raw");
  });

  it("serves agent and crew hooks added after a call with the same agent and crew", async () => {
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "writer" });
    const crew = new Crew({ agents: [agent] });
    const bindings = { agent, crew };
    expect((await hooks.invoke(echo, {}, bindings)).result).toBe("raw");
    const offAgent = agent.after(tagger("a"));
    expect((await hooks.invoke(echo, {}, bindings)).result).toBe("raw+a");
    const offCrew = crew.after(tagger("c"));
    expect((await hooks.invoke(echo, {}, bindings)).result).toBe("raw+a+c");
    offAgent();
    expect((await hooks.invoke(echo, {}, bindings)).result).toBe("raw+c");
    offCrew();
    expect((await hooks.invoke(echo, {}, bindings)).result).toBe("raw");
  });

  it("serves a pack used and removed between calls, on every layer", async () => {
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "writer" });
    const crew = new Crew({ agents: [agent] });
    for (const layer of [hooks, crew, agent]) {
      const pack = definePack({ name: "p", hooks: [{ kind: "after", fn: tagger("p") }] });
      expect((await hooks.invoke(echo, {}, { agent, crew })).result).toBe("raw");
      layer.use(pack);
      expect((await hooks.invoke(echo, {}, { agent, crew })).result).toBe("raw+p");
      expect(layer.remove(pack)).toBe(true);
      expect((await hooks.invoke(echo, {}, { agent, crew })).result).toBe("raw");
    }
  });

  it("keeps the apps that share a tool and an agent apart", async () => {
    const a = new ToolHooks();
    const b = new ToolHooks();
    const agent = new Agent({ role: "writer" });
    b.after(tagger("b"));
    expect((await a.invoke(echo, {}, { agent })).result).toBe("raw");
    expect((await b.invoke(echo, {}, { agent })).result).toBe("raw+b");
    expect((await a.invoke(echo, {}, { agent })).result).toBe("raw");
    a.after(tagger("a"));
    expect((await a.invoke(echo, {}, { agent })).result).toBe("raw+a");
    expect((await b.invoke(echo, {}, { agent })).result).toBe("raw+b");
  });

  it("tells calls with and without the agent or crew apart, in any order", async () => {
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "writer" });
    const crew = new Crew({ agents: [agent] });
    agent.after(tagger("a"));
    crew.after(tagger("c"));
    const other = defineTool({ name: "other", execute: () => "o" });
    const expected: [object, string][] = [
      [{}, "raw"],
      [{ agent }, "raw+a"],
      [{ crew }, "raw+c"],
      [{ agent, crew }, "raw+a+c"],
      [{}, "raw"],
      [{ crew }, "raw+c"],
    ];
    for (const [bindings, result] of expected) {
      expect((await hooks.invoke(echo, {}, bindings)).result).toBe(result);
      expect((await hooks.invoke(other, {}, bindings)).result.startsWith("o")).toBe(true);
    }
  });

  it("sees a hook that a running hook registers for the next call, and one the tool registers", async () => {
    const hooks = new ToolHooks();
    let added = false;
    const tool = defineTool({
      name: "self",
      execute: () => {
        if (!added) {
          added = true;
          hooks.after(tagger("late"));
        }
        return "raw";
      },
    });
    expect((await hooks.invoke(tool)).result).toBe("raw");
    expect((await hooks.invoke(tool)).result).toBe("raw+late");
  });

  it("explain() and invoke() agree after changes", async () => {
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "writer" });
    expect(hooks.explain({ toolName: "echo", agent })).toHaveLength(0);
    await hooks.invoke(echo, {}, { agent });
    agent.before(() => undefined);
    expect(hooks.explain({ toolName: "echo", agent })).toHaveLength(1);
    expect((await hooks.invoke(echo, {}, { agent })).trace).toHaveLength(1);
    agent.clear();
    expect((await hooks.invoke(echo, {}, { agent })).trace).toHaveLength(0);
    expect(hooks.explain({ toolName: "echo", agent })).toHaveLength(0);
  });
});
