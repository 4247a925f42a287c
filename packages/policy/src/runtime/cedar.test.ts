import { Agent, scriptedHumanInput, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "./load.js";
import { loadedDoc, tool } from "./test-fixtures.js";

const CEDAR = `@id("no-rm-for-juniors")
@reason("juniors cannot remove files")
forbid(principal == Agent::"junior", action, resource == Tool::"rm");

@id("mail-needs-a-person")
@requireApproval
permit(principal, action, resource == Tool::"send_email");

@id("reads")
permit(principal, action, resource == Tool::"read_file");
`;

const junior = new Agent({ role: "junior", goal: "g", backstory: "b" });

async function stack(
  rules: Parameters<typeof loadedDoc>[0],
  rest: Parameters<typeof loadedDoc>[1] = {},
  answers: string[] = [],
) {
  const human = scriptedHumanInput(answers);
  const policy = await loadPolicy(loadedDoc(rules, { cedar: { policies: CEDAR }, ...rest }), { humanInput: human });
  const hooks = new ToolHooks();
  hooks.use(policy);
  return { policy, hooks, human };
}

describe("loadPolicy with a Cedar section", () => {
  it("a Cedar forbid wins over a rule's allow, and is named in the trace", async () => {
    const { hooks, policy } = await stack([{ name: "all-ok", decide: "allow" }]);
    const out = await hooks.invoke(tool("rm"), {}, { agent: junior });
    expect(out).toMatchObject({ status: "blocked", reason: "juniors cannot remove files" });
    expect(out.trace.find((e) => e.action === "blocked")?.hook).toBe("policy:cedar");
    expect(policy.counters().rules["cedar:no-rm-for-juniors"]?.denied).toBe(1);
    expect((await hooks.invoke(tool("rm"), {})).status).toBe("ok");
  });

  it("a rule's deny wins over a Cedar permit", async () => {
    const { hooks } = await stack([
      { name: "no-reads", match: { tools: ["read_file"] }, decide: "deny", reason: "closed" },
    ]);
    expect((await hooks.invoke(tool("read_file"), {})).reason).toBe("closed");
  });

  it("@requireApproval asks a person through the approval pack", async () => {
    const { hooks, human } = await stack([], {}, ["yes", "no"]);
    expect((await hooks.invoke(tool("send_email"), { to: "a" })).status).toBe("ok");
    expect((await hooks.invoke(tool("send_email"), { to: "b" })).status).toBe("blocked");
    expect(human.requests).toHaveLength(2);
  });

  it("a Cedar permit allows what the file's default would deny; a tool no policy covers gets the default", async () => {
    const { hooks, policy } = await stack([], { default: "deny" });
    expect((await hooks.invoke(tool("read_file"), {})).status).toBe("ok");
    expect((await hooks.invoke(tool("write_file"), {})).status).toBe("blocked");
    expect(policy.explain({ tool: "read_file" })).toMatchObject({
      effect: "allow",
      rule: "cedar:reads",
      source: "cedar",
    });
  });

  it("in shadow mode a Cedar forbid is reported, not enforced", async () => {
    const { hooks, policy } = await stack([], { mode: "shadow" });
    expect((await hooks.invoke(tool("rm"), {}, { agent: junior })).status).toBe("ok");
    expect(policy.counters().rules["cedar:no-rm-for-juniors"]?.shadowDenied).toBe(1);
  });

  it("a Cedar error at load names the file, line and column", async () => {
    await expect(
      loadPolicy(loadedDoc([], { cedar: { policies: "forbid(principal, action, resource" } })),
    ).rejects.toThrow(/test\.policy\.yaml:\d+:\d+/);
  });
});
