import { describe, expect, it } from "vitest";
import { loadPolicy } from "./load.js";
import { loadedDoc } from "./test-fixtures.js";

const CEDAR = `@id("no-rm-for-juniors")
@reason("juniors cannot remove files")
forbid(principal == Agent::"junior", action, resource == Tool::"rm");

@id("reads")
permit(principal, action, resource == Tool::"read_file");
`;

describe("explain(): why each rule holds or not", () => {
  it("names the first key of a match that failed, and a condition's result", async () => {
    const policy = await loadPolicy(
      loadedDoc([
        { name: "other-tool", match: { tools: ["delete_*"] }, decide: "deny" },
        { name: "tagged", match: { tools: ["write_file"], tags: ["fs"] }, decide: "deny" },
        { name: "seniors", match: { agents: ["senior"] }, decide: "allow" },
        { name: "in-crew", match: { crews: ["ops"] }, decide: "allow" },
        { name: "from-ui", match: { callers: ["ui"] }, decide: "allow" },
        { name: "escape", match: { when: 'args.path.contains("..")' }, decide: "deny", reason: "escape" },
        { name: "short", match: { when: "size(args.path) < 3" }, decide: "approve" },
        { name: "ro", match: { annotations: { readOnlyHint: true } }, decide: "allow" },
      ]),
    );
    const e = policy.explain({ tool: "write_file", agent: "junior", args: { path: "../etc/passwd" } });
    expect(e).toMatchObject({ effect: "deny", rule: "escape", source: "rule", matched: ["escape"] });
    expect(e.rules.map((r) => [r.name, r.matched, r.failed])).toEqual([
      ["other-tool", false, "tools"],
      ["tagged", false, "tags"],
      ["seniors", false, "agents"],
      ["in-crew", false, "crews"],
      ["from-ui", false, "callers"],
      ["escape", true, undefined],
      ["short", false, "when"],
      ["ro", false, "annotations"],
    ]);
    expect(e.rules[5]?.condition).toEqual({ source: 'args.path.contains("..")', result: true });
    expect(e.rules[6]?.condition).toEqual({ source: "size(args.path) < 3", result: false });
    expect(e.rules[0]?.condition).toBeUndefined();
    expect(e.cedar).toBeUndefined();
  });

  it("reports a condition that errors (and the deny it causes), and reads annotations as the MCP adapter does", async () => {
    const policy = await loadPolicy(
      loadedDoc([
        { name: "needs-path", match: { when: 'args.path.startsWith("/")' }, decide: "allow" },
        { name: "ro", match: { annotations: { readOnlyHint: true, destructiveHint: false } }, decide: "allow" },
        { name: "wipe", match: { annotations: { destructiveHint: true } }, decide: "approve" },
      ]),
    );
    const e = policy.explain({ tool: "t", args: {}, annotations: { readOnlyHint: true } });
    expect(e).toMatchObject({ effect: "deny", rule: "needs-path" });
    expect(e.reason).toMatch(/could not evaluate its condition/);
    expect(e.rules[0]?.condition).toMatchObject({ result: "error", error: expect.stringMatching(/path/) });
    expect(e.rules[1]).toMatchObject({ matched: true });
    expect(e.rules[2]).toMatchObject({ matched: false, failed: "annotations" });
    const d = policy.explain({ tool: "t", args: { path: "/a" }, annotations: { destructiveHint: true } });
    expect(d).toMatchObject({ effect: "approve", rule: "wipe", matched: ["needs-path", "wipe"] });
  });

  it("says what Cedar answers and whether the decision asked it", async () => {
    const policy = await loadPolicy(
      loadedDoc([{ name: "no-rm", match: { tools: ["rm"], crews: ["locked"] }, decide: "deny" }], {
        cedar: { policies: CEDAR },
      }),
    );
    expect(policy.explain({ tool: "rm", agent: "junior" }).cedar).toEqual({
      covers: true,
      consulted: true,
      effect: "deny",
      policies: ["no-rm-for-juniors"],
      reason: "juniors cannot remove files",
    });
    expect(policy.explain({ tool: "rm", agent: "junior", crew: "locked" })).toMatchObject({
      rule: "no-rm",
      cedar: { consulted: false, effect: "deny" },
    });
    expect(policy.explain({ tool: "write_file" }).cedar).toEqual({
      covers: false,
      consulted: false,
      effect: "none",
      policies: [],
      reason: undefined,
    });
  });

  it("refuses a misspelt or mistyped call instead of explaining another one", async () => {
    const policy = await loadPolicy(loadedDoc([{ name: "a", decide: "deny" }]));
    const explain = policy.explain as (call: unknown) => unknown;
    expect(() => explain({ tool: "t", agnet: "junior" })).toThrow(/unknown key `agnet` \(did you mean "agent"\?\)/);
    expect(() => explain({ tool: "" })).toThrow(/`tool` must be a non-empty string/);
    expect(() => explain({ tool: "t", args: [] })).toThrow(/`args` must be an object/);
    expect(() => explain({ tool: "t", tags: "fs" })).toThrow(/`tags` must be strings/);
    expect(() => explain({ tool: "t", agent: 7 })).toThrow(/`agent` must be a string/);
    expect(() => explain({ tool: "t", destructive: "yes" })).toThrow(/`destructive` must be a boolean/);
    expect(() => explain(null)).toThrow(/takes a call/);
  });
});
