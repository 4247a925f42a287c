import { defineTool, type HumanInputProvider, scriptedHumanInput, ToolHooks } from "@toolware/core";
import { afterEach, describe, expect, it } from "vitest";
import { type ApprovalOptions, approval } from "./index.js";

const received: Record<string, unknown>[] = [];
const writeFile = defineTool({
  name: "write_file",
  execute: (input: Record<string, unknown>) => {
    received.push(structuredClone(input));
    return "written";
  },
});

function setup(answers: string[] | HumanInputProvider, options: ApprovalOptions = {}) {
  const human = Array.isArray(answers) ? scriptedHumanInput(answers) : answers;
  const hooks = new ToolHooks({ humanInput: human });
  const pack = approval(options);
  hooks.use(pack);
  const asked = () => (human as ReturnType<typeof scriptedHumanInput>).requests.length;
  return { hooks, pack, asked };
}

afterEach(() => {
  received.length = 0;
});

describe("approval: edit the arguments before approving", () => {
  it("merges an edit into the input, in place", async () => {
    const { hooks } = setup(['edit {"path":"b.txt"}']);
    const input = { path: "a.txt", content: "hello" };
    const out = await hooks.invoke(writeFile, input);
    expect(out.status).toBe("ok");
    expect(received).toEqual([{ path: "b.txt", content: "hello" }]);
    expect(input).toEqual({ path: "b.txt", content: "hello" });
  });

  it("replaces the input in replace mode, and accepts any case and no space", async () => {
    const { hooks } = setup(['EDIT{"path":"c.txt","mode":"append"}'], { editMode: "replace" });
    await hooks.invoke(writeFile, { path: "a.txt", content: "hello" });
    expect(received).toEqual([{ path: "c.txt", mode: "append" }]);
  });

  it.each([
    ['edit {"path": "b.txt"', /^write_file was not approved: the edited arguments are not a valid JSON object/],
    ["edit [1, 2]", /must be an object, got an array/],
    ['edit {"a":1} trailing', /not a valid JSON object/],
    ["edit path=b.txt", /not a valid JSON object/],
    ['edit "b.txt"', /must be an object, got string/],
    ["edit null", /must be an object, got null/],
    ['edit {"__proto__": {"polluted": true}}', /"__proto__"/],
    ['edit {"nested": {"__proto__": {"polluted": true}}}', /"__proto__"/],
    [`edit ${"[".repeat(100)}${"]".repeat(100)}`, /must be an object/],
    [`edit {"a":${'{"a":'.repeat(80)}1${"}".repeat(80)}}`, /nested too deeply/],
  ])("denies the bad edit %j and runs nothing", async (answer, reason) => {
    const { hooks } = setup([answer]);
    const input = { path: "a.txt" };
    const out = await hooks.invoke(writeFile, input);
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(reason);
    expect(received).toEqual([]);
    expect(input).toEqual({ path: "a.txt" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("treats edits as plain denials when edits are off", async () => {
    const { hooks } = setup(['edit {"path":"b.txt"}'], { edits: false });
    const out = await hooks.invoke(writeFile, { path: "a.txt" });
    expect(out.reason).toBe('a human did not approve write_file (answer: "edit {\\"path\\":\\"b.txt\\"}")');
  });

  it("takes a custom parseAnswer, validating what it returns", async () => {
    const parseAnswer: ApprovalOptions["parseAnswer"] = async (answer) => {
      if (answer === "ok") return { approve: true };
      if (answer.startsWith("to:")) return { approve: true, input: { path: answer.slice(3) } };
      if (answer === "bad") return { approve: "yes" } as never;
      if (answer === "array") return { approve: true, input: [1] } as never;
      if (answer === "boom") throw new Error("parser crashed");
      return { approve: false, reason: "not today" };
    };
    const { hooks } = setup(["ok", "to:z.txt", "bad", "array", "boom", "later"], { parseAnswer });
    expect((await hooks.invoke(writeFile, { path: "a" })).status).toBe("ok");
    expect((await hooks.invoke(writeFile, { path: "a" })).status).toBe("ok");
    expect(received).toEqual([{ path: "a" }, { path: "z.txt" }]);
    expect((await hooks.invoke(writeFile, {})).reason).toMatch(/could not be read: parseAnswer returned no boolean/);
    expect((await hooks.invoke(writeFile, {})).reason).toMatch(/could not be read: .*must be an object/);
    expect((await hooks.invoke(writeFile, {})).reason).toMatch(/could not be read: parseAnswer failed: parser crashed/);
    expect((await hooks.invoke(writeFile, {})).reason).toBe("write_file was not approved: not today");
    expect(received).toHaveLength(2);
  });
});

describe("approval: remembering decisions for the run", () => {
  it("remembers 'always' per tool until reset()", async () => {
    const { hooks, pack, asked } = setup(["always", "no"], { remember: "tool" });
    expect((await hooks.invoke(writeFile, { path: "a" })).status).toBe("ok");
    expect((await hooks.invoke(writeFile, { path: "b" })).status).toBe("ok");
    expect(asked()).toBe(1);
    expect(pack.rememberedCount()).toBe(1);
    pack.reset();
    expect(pack.rememberedCount()).toBe(0);
    expect((await hooks.invoke(writeFile, { path: "c" })).status).toBe("blocked");
    expect(asked()).toBe(2);
  });

  it("remembers 'never' and says so", async () => {
    const { hooks, asked } = setup(["NEVER"], { remember: "tool" });
    expect((await hooks.invoke(writeFile, {})).status).toBe("blocked");
    const again = await hooks.invoke(writeFile, {});
    expect(again.reason).toBe("a human denied write_file earlier in this run");
    expect(asked()).toBe(1);
  });

  it("does not remember a plain yes, nor an edit", async () => {
    const { hooks, asked } = setup(["yes", 'edit {"path":"x"}', "no"], { remember: "tool" });
    await hooks.invoke(writeFile, {});
    await hooks.invoke(writeFile, {});
    expect((await hooks.invoke(writeFile, {})).status).toBe("blocked");
    expect(asked()).toBe(3);
  });

  it("with tool+input remembers only the exact input (key order aside)", async () => {
    const { hooks, asked } = setup(["always", "no"], { remember: "tool+input" });
    expect((await hooks.invoke(writeFile, { path: "a", mode: "w" })).status).toBe("ok");
    expect((await hooks.invoke(writeFile, { mode: "w", path: "a" })).status).toBe("ok");
    expect((await hooks.invoke(writeFile, { path: "b", mode: "w" })).status).toBe("blocked");
    expect(asked()).toBe(2);
  });

  it("keeps memory per pack instance", async () => {
    const human = scriptedHumanInput(["always", "no"]);
    const a = new ToolHooks({ humanInput: human });
    const b = new ToolHooks({ humanInput: human });
    a.use(approval({ remember: "tool" }));
    b.use(approval({ remember: "tool" }));
    expect((await a.invoke(writeFile, {})).status).toBe("ok");
    expect((await b.invoke(writeFile, {})).status).toBe("blocked");
    expect((await a.invoke(writeFile, {})).status).toBe("ok");
  });
});

describe("approval: concurrent calls", () => {
  it("asks once per call and gives each call its own answer and input", async () => {
    const human = scriptedHumanInput(["yes", "no", 'edit {"path":"z"}']);
    const hooks = new ToolHooks({ humanInput: human });
    hooks.use(approval());
    const outs = await Promise.all(["a", "b", "c"].map((path) => hooks.invoke(writeFile, { path })));
    expect(outs.map((o) => o.status)).toEqual(["ok", "blocked", "ok"]);
    expect(human.requests.map((r) => r.prompt.split("\n")[1])).toEqual([
      'Input: {"path":"a"}',
      'Input: {"path":"b"}',
      'Input: {"path":"c"}',
    ]);
    expect(received).toEqual([{ path: "a" }, { path: "z" }]);
  });

  it("with remember, waiting calls reuse the first answer instead of asking again", async () => {
    let release: (answer: string) => void = () => {};
    const human = scriptedHumanInput([() => new Promise<string>((r) => (release = r)), "no"]);
    const hooks = new ToolHooks({ humanInput: human });
    hooks.use(approval({ remember: "tool" }));
    const pending = [1, 2, 3].map((n) => hooks.invoke(writeFile, { n }));
    await new Promise((r) => setTimeout(r, 0));
    expect(human.requests).toHaveLength(1);
    release("always");
    const outs = await Promise.all(pending);
    expect(outs.map((o) => o.status)).toEqual(["ok", "ok", "ok"]);
    expect(human.requests).toHaveLength(1);
  });

  it("with remember, a plain yes lets the next waiting call ask for itself", async () => {
    const human = scriptedHumanInput(["yes", "no"]);
    const hooks = new ToolHooks({ humanInput: human });
    hooks.use(approval({ remember: "tool" }));
    const outs = await Promise.all([hooks.invoke(writeFile, { n: 1 }), hooks.invoke(writeFile, { n: 2 })]);
    expect(outs.map((o) => o.status)).toEqual(["ok", "blocked"]);
  });
});

describe("approval: option validation", () => {
  it.each([
    [null, /options object/],
    [{ approveWords: [] }, /non-empty array/],
    [{ approveWords: ["yes", ""] }, /non-empty strings/],
    [{ approveWords: ["  "] }, /non-empty strings/],
    [{ alwaysWords: ["always"] }, /need `remember`/],
    [{ remember: "tool", approveWords: ["ok"], neverWords: ["OK"] }, /listed twice/],
    [{ remember: "forever" }, /`remember` must be/],
    [{ editPrefix: "two words" }, /one non-empty word/],
    [{ editMode: "patch" }, /`editMode`/],
    [{ timeoutMs: 0 }, /`timeoutMs`/],
    [{ timeoutMs: Number.NaN }, /`timeoutMs`/],
    [{ maxInputChars: 3 }, /`maxInputChars`/],
    [{ parseAnswer: "yes" }, /`parseAnswer` must be a function/],
    [{ tools: [] }, /the list is empty/],
    [{ tools: ["***", "---"] }, /matches nothing/],
    [{ colour: 1 }, /unknown option `colour`/],
  ])("rejects %j", (options, error) => {
    expect(() => approval(options as never)).toThrow(TypeError);
    expect(() => approval(options as never)).toThrow(/^toolware\/approval: /);
    expect(() => approval(options as never)).toThrow(error);
  });
});
