// Typos and wrong types where tools, entities, packs and hooks are defined: each is a coded TypeError with a hint.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Agent, beforeToolCall, Crew, definePack, defineTool, Task, ToolHooks, toolwareCode } from "./index.js";

function thrown(fn: () => unknown): { code: string | undefined; message: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return { code: toolwareCode(error), message: (error as Error).message };
  }
  throw new Error("expected a throw");
}

const execute = () => "ran";

describe("defineTool", () => {
  it("refuses ill-typed fields instead of quietly defaulting them", () => {
    const cases: [object, RegExp][] = [
      [{ destructive: "yes" }, /^toolware: tool t: `destructive` must be true or false, got "yes"$/],
      [{ destructive: 0 }, /`destructive` must be true or false, got 0/],
      [{ description: 5 }, /^toolware: tool t: `description` must be a string, got 5$/],
      [{ tags: "admin" }, /`tags` must be an array of strings, got "admin"/],
      [{ tags: [1, "a"] }, /`tags` must be an array of strings, got an array/],
      [{ formatResult: "json" }, /`formatResult` must be a function, got "json"/],
    ];
    for (const [fields, message] of cases) {
      expect(thrown(() => defineTool({ name: "t", execute, ...fields } as never))).toEqual({
        code: "TOOLWARE_INVALID_TOOL",
        message: expect.stringMatching(message),
      });
    }
    expect(defineTool({ name: "t", execute, destructive: true }).destructive).toBe(true);
    expect(defineTool({ name: "t", execute, destructive: false, description: undefined }).destructive).toBe(false);
  });

  it("refuses unknown fields, pointing schema fields of other frameworks to inputSchema", () => {
    for (const key of ["schema", "parameters", "input_schema", "inputschema", "argsSchema"]) {
      expect(thrown(() => defineTool({ name: "t", execute, [key]: {} } as never))).toEqual({
        code: "TOOLWARE_UNKNOWN_OPTION",
        message: expect.stringMatching(
          new RegExp(`unknown defineTool\\(\\) field \`${key}\`: did you mean \`inputSchema\`\\? \\(it takes a zod`),
        ),
      });
    }
    expect(thrown(() => defineTool({ name: "t", func: execute } as never)).message).toMatch(
      /unknown defineTool\(\) field `func`: did you mean `execute`\? \(LangChain/,
    );
    expect(thrown(() => defineTool({ name: "t", execute, destrutive: true } as never)).message).toMatch(
      /unknown defineTool\(\) field `destrutive` \(did you mean `destructive`\? expected one of: name, description/,
    );
    expect(thrown(() => defineTool({ name: "t", execute, zzz: 1 } as never)).message).toMatch(
      /unknown defineTool\(\) field `zzz` \(expected one of: /,
    );
  });

  it("refuses blank and separator-only names, and non-objects", () => {
    expect(thrown(() => defineTool({ name: "", execute }))).toEqual({
      code: "TOOLWARE_INVALID_TOOL",
      message: "toolware: a tool needs a non-empty `name`",
    });
    for (const name of [" ", "__", "--", "._.", "\u00a0", "\u200d"]) {
      expect(thrown(() => defineTool({ name, execute })).message).toMatch(/is only blanks and separators/);
    }
    expect(thrown(() => defineTool(null as never))).toEqual({
      code: "TOOLWARE_INVALID_TOOL",
      message: "toolware: defineTool() takes an object { name, execute }, got null",
    });
    expect(thrown(() => defineTool({ name: "t" } as never)).message).toBe(
      "toolware: tool t needs an `execute` function",
    );
  });

  it("property: a definition with any extra key is refused; the six known ones are enough", () => {
    const known = new Set(["name", "description", "execute", "formatResult", "tags", "destructive"]);
    fc.assert(
      fc.property(
        fc.string().filter((k) => !known.has(k)),
        fc.anything(),
        (key, value) => {
          expect(thrown(() => defineTool({ name: "t", execute, [key]: value } as never)).code).toBe(
            "TOOLWARE_UNKNOWN_OPTION",
          );
        },
      ),
    );
  });
});

describe("Agent, Task and Crew options", () => {
  it("refuses unknown keys, with a hint", () => {
    expect(thrown(() => new Agent({ role: "a", rol: 1 } as never))).toEqual({
      code: "TOOLWARE_UNKNOWN_OPTION",
      message: expect.stringMatching(/^toolware: unknown new Agent\(\) option `rol` \(did you mean `role`\?/),
    });
    expect(thrown(() => new Agent({ role: "a", name: "x" } as never)).message).toMatch(/named by its `role`/);
    expect(thrown(() => new Agent({ role: "a", llm: "gpt" } as never)).message).toMatch(/only carry what hooks read/);
    expect(thrown(() => new Task({ description: "d", expected_output: "x" } as never)).message).toMatch(
      /unknown new Task\(\) option `expected_output` \(did you mean `expectedOutput`\?/,
    );
    expect(thrown(() => new Crew({ agent: [] } as never)).message).toMatch(
      /unknown new Crew\(\) option `agent` \(did you mean `agents`\?/,
    );
  });

  it("refuses wrong types", () => {
    const cases: [() => unknown, RegExp][] = [
      [() => new Agent({} as never), /new Agent\(\) needs a non-empty `role` .*got undefined/],
      [() => new Agent({ role: "  " }), /needs a non-empty `role` \(not only blanks and separators\), got " {2}"/],
      [() => new Agent({ role: 7 } as never), /got 7/],
      [() => new Agent({ role: "a", goal: 1 } as never), /new Agent\(\) `goal` must be a string, got 1/],
      [() => new Agent({ role: "a", backstory: {} } as never), /`backstory` must be a string, got an object/],
      [() => new Agent({ role: "a", tools: {} } as never), /`tools` must be an array of tools, got an object/],
      [
        () => new Agent({ role: "a", tools: ["web_search"] } as never),
        /`tools\[0\]` must be a tool \(\{ name, execute \}\)/,
      ],
      [() => new Agent("researcher" as never), /new Agent\(\) takes an options object, got "researcher"/],
      [() => new Task({ description: 1 } as never), /new Task\(\) needs a `description` string, got 1/],
      [() => new Task({ description: "d", expectedOutput: 2 } as never), /`expectedOutput` must be a string/],
      [() => new Task({ description: "d", agent: { role: "a" } } as never), /`agent` must be an Agent/],
      [() => new Crew(null as never), /new Crew\(\) takes an options object, got null/],
      [() => new Crew({ name: 3 } as never), /new Crew\(\) `name` must be a string, got 3/],
      [() => new Crew({ agents: [{ role: "a" }] } as never), /`agents\[0\]` must be an Agent, got an object/],
      [() => new Crew({ tasks: "t" } as never), /`tasks` must be an array of Tasks, got "t"/],
    ];
    for (const [make, message] of cases) {
      expect(thrown(make)).toEqual({
        code: expect.stringMatching(/^TOOLWARE_/),
        message: expect.stringMatching(message),
      });
      expect(thrown(make).code).toBe("TOOLWARE_INVALID_OPTION");
    }
  });

  it("keeps valid options, and copies lists so later changes to the caller's arrays do not leak in", () => {
    const tool = defineTool({ name: "t", execute });
    const tools = [tool];
    const agent = new Agent({ role: "a", goal: "g", backstory: undefined, tools });
    tools.push(tool);
    expect(agent.tools).toEqual([tool]);
    const task = new Task({ description: "d", expectedOutput: "e", agent });
    const crew = new Crew({ name: "c", agents: [agent], tasks: [task] });
    expect([crew.agents, crew.tasks, task.agent]).toEqual([[agent], [task], agent]);
    expect(new Agent({ role: "研究员" }).role).toBe("研究员");
  });
});

describe("the other option checks", () => {
  it("ToolHooks and hook options suggest the key that was meant", () => {
    expect(thrown(() => new ToolHooks({ onHookErorr: "block" } as never)).message).toMatch(
      /unknown ToolHooks option `onHookErorr` \(did you mean `onHookError`\?/,
    );
    expect(thrown(() => new ToolHooks({ onError: "block" } as never)).message).toMatch(/per-hook option/);
    expect(thrown(() => new ToolHooks({ onHookError: { x: 1 } } as never)).message).toMatch(/got an object$/);
    const hooks = new ToolHooks();
    expect(thrown(() => hooks.before(() => {}, { tool: "x" } as never))).toEqual({
      code: "TOOLWARE_UNKNOWN_OPTION",
      message: expect.stringMatching(/unknown hook option `tool` \(did you mean `tools`\?/),
    });
    expect(thrown(() => hooks.before(() => {}, { timeout: 5 } as never)).message).toMatch(/`timeoutMs`/);
    expect(thrown(() => hooks.before(() => {}, { priority: "high" } as never)).message).toMatch(
      /`priority` must be a finite number, got "high"/,
    );
    expect(thrown(() => hooks.before(() => {}, { tools: [] })).code).toBe("TOOLWARE_INVALID_FILTER");
    expect(thrown(() => hooks.before(() => {}, { tools: "--" })).code).toBe("TOOLWARE_INVALID_FILTER");
    expect(thrown(() => hooks.before(() => {}, { tools: null as never })).message).toMatch(/got null$/);
    const hostile = {
      toString: () => {
        throw new Error("no");
      },
    };
    expect(thrown(() => hooks.before(() => {}, { timeoutMs: hostile as never })).message).toMatch(/got an object$/);
  });

  it("says 'an after hook', and codes a hook that is not a function", () => {
    const hooks = new ToolHooks();
    expect(thrown(() => hooks.after("x" as never))).toEqual({
      code: "TOOLWARE_INVALID_HOOK",
      message: "toolware: an after hook must be a function, got string",
    });
    expect(thrown(() => hooks.before(null as never)).message).toBe(
      "toolware: a before hook must be a function, got null",
    );
  });

  it("decorator options are checked where the decorator is applied", () => {
    expect(thrown(() => beforeToolCall({ tool: "x" } as never))).toEqual({
      code: "TOOLWARE_UNKNOWN_OPTION",
      message: expect.stringMatching(/did you mean `tools`\?/),
    });
    expect(thrown(() => beforeToolCall({ hooks: {} } as never)).code).toBe("TOOLWARE_INVALID_OPTION");
    expect(thrown(() => beforeToolCall(3 as never)).code).toBe("TOOLWARE_INVALID_DECORATOR");
  });

  it("explain() and the humanInput setter check their arguments", () => {
    const hooks = new ToolHooks();
    expect(thrown(() => hooks.explain({ toolName: "t", agnet: new Agent({ role: "a" }) } as never))).toEqual({
      code: "TOOLWARE_UNKNOWN_OPTION",
      message: expect.stringMatching(/unknown explain\(\) key `agnet` \(did you mean `agent`\?/),
    });
    expect(thrown(() => hooks.explain({ toolName: "t", agent: { role: "a" } } as never)).code).toBe(
      "TOOLWARE_INVALID_ARGUMENT",
    );
    expect(thrown(() => hooks.explain("t" as never)).code).toBe("TOOLWARE_INVALID_ARGUMENT");
    expect(
      thrown(() => {
        hooks.humanInput = "yes" as never;
      }),
    ).toEqual({ code: "TOOLWARE_INVALID_OPTION", message: 'toolware: humanInput must be a function, got "yes"' });
  });

  it("definePack codes its errors and checks `stateful`", () => {
    expect(thrown(() => definePack(null as never)).code).toBe("TOOLWARE_INVALID_PACK");
    expect(thrown(() => definePack({ name: "", hooks: [] })).code).toBe("TOOLWARE_INVALID_PACK");
    expect(thrown(() => definePack({ name: "p", hooks: {} as never })).code).toBe("TOOLWARE_INVALID_PACK");
    expect(thrown(() => definePack({ name: "p", hooks: [{ kind: "around", fn: () => {} } as never] })).code).toBe(
      "TOOLWARE_INVALID_PACK",
    );
    expect(thrown(() => definePack({ name: "p", hooks: [], stateful: "yes" as never }))).toEqual({
      code: "TOOLWARE_INVALID_PACK",
      message: 'toolware: pack p: `stateful` must be true or false, got "yes"',
    });
  });
});
