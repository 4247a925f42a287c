// Option mistakes are refused with a code and a hint; a mistake never silently switches a list off.
import { defineTool, ToolHooks, ToolwareTypeError, toolwareCode } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { guardrails } from "./index.js";

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

const cyclic: Record<string, unknown> = {};
cyclic.self = cyclic;
const hostile = new Proxy(
  {},
  {
    getPrototypeOf() {
      throw new Error("trap");
    },
    ownKeys() {
      throw new Error("trap");
    },
  },
);

const yes = (): boolean => true;

describe("guardrails: option mistakes", () => {
  it.each<[string, unknown, string, RegExp]>([
    [
      "a role entry with no list",
      { byRole: { x: {} } },
      "TOOLWARE_INVALID_OPTION",
      /byRole.x has no list: give it deny, allow or warn/,
    ],
    [
      "a role entry whose lists are all undefined",
      { byRole: { x: { deny: undefined } } },
      "TOOLWARE_INVALID_OPTION",
      /byRole.x has no list/,
    ],
    ["an empty byRole", { deny: ["x"], byRole: {} }, "TOOLWARE_INVALID_OPTION", /`byRole` has no roles/],
    [
      "a Map as byRole",
      { byRole: new Map([["x", { deny: ["y"] }]]) },
      "TOOLWARE_INVALID_OPTION",
      /`byRole` must be an object/,
    ],
    [
      "a role entry that is an array",
      { byRole: { x: ["y"] } },
      "TOOLWARE_INVALID_OPTION",
      /byRole.x must be an object/,
    ],
    ["a rule with no list", { rules: [{ when: yes }] }, "TOOLWARE_INVALID_OPTION", /rules\[0\] has no list/],
    ["an empty rules array", { deny: ["x"], rules: [] }, "TOOLWARE_INVALID_OPTION", /`rules` is empty/],
    [
      "a blank rule name",
      { rules: [{ when: yes, name: " ", deny: ["x"] }] },
      "TOOLWARE_INVALID_OPTION",
      /name must be a non-empty string/,
    ],
    ["an array as options", [], "TOOLWARE_INVALID_OPTION", /takes an options object/],
    ["a Proxy whose traps throw", hostile, "TOOLWARE_INVALID_OPTION", /takes an options object/],
    [
      "a blank message",
      { deny: ["x"], message: "  " },
      "TOOLWARE_INVALID_OPTION",
      /`message` must be a string or a function, got a blank string|`message` must be a string or a function/,
    ],
    [
      "a list under another library's name",
      { blocked: ["x"] },
      "TOOLWARE_UNKNOWN_OPTION",
      /unknown option `blocked` \(did you mean `deny`\?\)/,
    ],
    [
      "a role list under another name",
      { byRole: { x: { allowed: ["y"] } } },
      "TOOLWARE_UNKNOWN_OPTION",
      /byRole.x: unknown option `allowed` \(did you mean `allow`\?\)/,
    ],
    ["an odd key", { deny: ["x"], "bad\nkey": 1 }, "TOOLWARE_UNKNOWN_OPTION", /unknown option `"bad\\nkey"`/],
    [
      "a matcher holding a BigInt",
      { deny: [{ tag: 1n }] },
      "TOOLWARE_INVALID_OPTION",
      /needs a non-empty tag name, got 1n/,
    ],
    ["a cyclic matcher", { deny: [cyclic] }, "TOOLWARE_INVALID_OPTION", /a tool matcher is .*got an object/],
    [
      "a priority that is a string",
      { deny: ["x"], priority: "1" },
      "TOOLWARE_INVALID_OPTION",
      /`priority` must be a finite number, got "1"/,
    ],
  ])("refuses %s", (_what, options, code, message) => {
    const e = thrown(() => guardrails(options as never));
    expect(e).toBeInstanceOf(ToolwareTypeError);
    expect(e).toBeInstanceOf(TypeError);
    expect(toolwareCode(e)).toBe(code);
    expect((e as Error).message).toMatch(/^toolware\/guardrails: /);
    expect((e as Error).message).toMatch(message);
  });

  it("never throws anything but a coded TypeError for arbitrary options", () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (a, b) => {
        for (const options of [a, { deny: a }, { byRole: { r: a } }, { rules: [a] }, { deny: ["x"], message: b }]) {
          try {
            guardrails(options as never);
          } catch (e) {
            expect(e).toBeInstanceOf(TypeError);
            expect(toolwareCode(e)).toMatch(/^TOOLWARE_(INVALID|UNKNOWN)_OPTION$/);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("guardrails: check() arguments", () => {
  const rails = guardrails({ deny: [{ tag: "destructive" }], byRole: { junior: { deny: ["send_email"] } } });

  it.each<[string, unknown, string, RegExp]>([
    [
      "a typo'd role key",
      { toolName: "send_email", agent: "junior" },
      "TOOLWARE_UNKNOWN_OPTION",
      /check\(\): unknown key `agent` \(did you mean `role`\?\)/,
    ],
    ["`name` for `toolName`", { name: "send_email" }, "TOOLWARE_UNKNOWN_OPTION", /did you mean `toolName`\?/],
    [
      "tags that are a string",
      { toolName: "x", tags: "destructive" },
      "TOOLWARE_INVALID_ARGUMENT",
      /`tags` must be an array of strings/,
    ],
    [
      "a destructive flag that is a string",
      { toolName: "x", destructive: "yes" },
      "TOOLWARE_INVALID_ARGUMENT",
      /`destructive` must be a boolean/,
    ],
    [
      "a role that is an object",
      { toolName: "x", role: { role: "junior" } },
      "TOOLWARE_INVALID_ARGUMENT",
      /`role` must be a string/,
    ],
    ["no tool name", {}, "TOOLWARE_INVALID_ARGUMENT", /`toolName` must be a string/],
    ["no object", "send_email", "TOOLWARE_INVALID_ARGUMENT", /check\(\) takes \{ toolName/],
  ])("refuses %s instead of answering for another tool", (_what, query, code, message) => {
    const e = thrown(() => rails.check(query as never));
    expect(toolwareCode(e)).toBe(code);
    expect((e as Error).message).toMatch(message);
  });

  it("answers correctly once the query is well formed", () => {
    expect(rails.check({ toolName: "send_email", role: "junior" }).allowed).toBe(false);
    expect(rails.check({ toolName: "x", tags: ["destructive"] }).allowed).toBe(false);
    expect(rails.check({ toolName: "x", destructive: true }).allowed).toBe(false);
    expect(rails.check({ toolName: "x" }).allowed).toBe(true);
  });
});

describe("guardrails: a message function that returns no string", () => {
  it.each([undefined, 42, { reason: "x" }, null])("blocks the call anyway when it returns %j", async (returned) => {
    const hooks = new ToolHooks({ onHookError: "continue" });
    hooks.use(guardrails({ deny: ["drop_table"], message: () => returned as never }));
    const out = await hooks.invoke(defineTool({ name: "drop_table", execute: () => "dropped" }), {});
    expect(out.status).toBe("blocked");
    expect(out.raw).toBeUndefined();
    expect(out.reason).toMatch(/`message` returned .*, not a string/);
    expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_RETURN");
  });
});
