import { describe, expect, it } from "vitest";
import { compileCedar } from "../index.js";
import { rejection, SCHEMA } from "./test-fixtures.js";

const POLICIES = `// Who may do what, in Cedar.
@id("juniors-cannot-delete")
@reason("junior agents cannot delete files")
forbid(principal == Agent::"junior", action == Action::"call", resource == Tool::"delete_file");

@id("ask-before-mail")
@reason("a person reads every email first")
@requireApproval
permit(principal in Crew::"support", action, resource in Tag::"mail");

@id("approve-true")
@requireApproval("true")
permit(principal, action, resource == Tool::"deploy");

@id("approval-off")
@requireApproval("false")
permit(principal, action, resource == Tool::"status");

permit(principal, action, resource == Tool::"write_file") when { context has path && context.path like "/srv/*" };

@id("no-destructive-for-callers")
@description("callers outside a crew never run destructive tools")
forbid(principal is Caller, action, resource) when { resource.destructive };
`;

const engine = await compileCedar({ file: "toolware.cedar", policies: POLICIES, schema: SCHEMA });

describe("compileCedar: decisions", () => {
  it("a forbid denies, naming its @id and @reason", () => {
    expect(engine.decide({ tool: "delete_file", agent: "junior", args: { path: "a" } })).toEqual({
      effect: "deny",
      policies: ["juniors-cannot-delete"],
      reason: "junior agents cannot delete files",
    });
  });

  it('a permit annotated @requireApproval asks (bare, or "true"); "false" is a plain permit', () => {
    const mail = engine.decide({ tool: "send_email", agent: "a", crew: "support", tags: ["mail"], args: {} });
    expect(mail).toEqual({
      effect: "approve",
      policies: ["ask-before-mail"],
      reason: "a person reads every email first",
    });
    expect(engine.decide({ tool: "deploy", caller: "ci", annotations: { readOnlyHint: true } })).toEqual({
      effect: "approve",
      policies: ["approve-true"],
    });
    expect(engine.decide({ tool: "status", caller: "ci", annotations: { destructiveHint: false } }).effect).toBe(
      "allow",
    );
  });

  it("a plain permit allows, named by Cedar's id when it has no @id", () => {
    expect(engine.decide({ tool: "write_file", agent: "a", args: { path: "/srv/a.txt" } })).toEqual({
      effect: "allow",
      policies: ["policy4"],
    });
  });

  it("nothing applies: none (the file's default decides)", () => {
    expect(engine.decide({ tool: "write_file", agent: "a", args: { path: "/etc/passwd" } })).toEqual({
      effect: "none",
      policies: [],
    });
    expect(engine.decide({ tool: "send_email", agent: "a", crew: "sales", tags: ["mail"] }).effect).toBe("none");
  });

  it("forbid beats permit and approval", () => {
    const call = { tool: "deploy", caller: "ci", annotations: { destructiveHint: true } } as const;
    expect(engine.decide(call)).toEqual({ effect: "deny", policies: ["no-destructive-for-callers"] });
  });

  it("a tool that says nothing has MCP's defaults: destructive unless read-only", () => {
    expect(engine.decide({ tool: "status", caller: "ci" }).effect).toBe("deny");
    expect(engine.decide({ tool: "status", caller: "ci", annotations: { readOnlyHint: true } }).effect).toBe("allow");
    // A hint that is not a boolean is no hint.
    const lying = { destructiveHint: "no" } as unknown as { destructiveHint: boolean };
    expect(engine.decide({ tool: "status", caller: "ci", annotations: lying }).effect).toBe("deny");
  });

  it("the principal: the agent when bound, else the caller, else Anonymous", () => {
    expect(engine.decide({ tool: "status", agent: "bot", caller: "ci" }).effect).toBe("allow");
    expect(engine.decide({ tool: "status" }).effect).toBe("allow");
  });

  it("an evaluation error fails closed, naming the policy", () => {
    const loose = engine.decide({ tool: "write_file", agent: "a", args: { path: 42 } });
    expect(loose.effect).toBe("deny");
    expect(loose.policies).toEqual(["policy4"]);
    expect(loose.reason).toMatch(/Cedar could not decide this call \(policies policy4\)/);
  });

  it("lists its policies in file order, with where each starts", () => {
    expect(engine.policies.map((p) => [p.id, p.effect, p.requireApproval, p.at.line])).toEqual([
      ["juniors-cannot-delete", "forbid", false, 2],
      ["ask-before-mail", "permit", true, 6],
      ["approve-true", "permit", true, 11],
      ["approval-off", "permit", false, 15],
      ["policy4", "permit", false, 19],
      ["no-destructive-for-callers", "forbid", false, 21],
    ]);
  });
});

describe("compileCedar: covers", () => {
  it("only tools a policy can apply to; a policy unscoped on its resource covers all", async () => {
    const scoped = await compileCedar({
      file: "scoped.cedar",
      policies: `forbid(principal, action, resource == Tool::"rm");
permit(principal, action, resource in Tool::"ls");
permit(principal, action == Action::"call", resource is Tool in Tool::"cat");`,
    });
    expect(scoped.covers("rm")).toBe(true);
    expect(scoped.covers("ls")).toBe(true);
    expect(scoped.covers("read_file")).toBe(false);
    expect(scoped.covers("__proto__")).toBe(false);
    expect(engine.covers("anything")).toBe(true);
  });

  it("a tag or type scope cannot be told from the name: it covers every tool", async () => {
    const tagged = await compileCedar({
      file: "t.cedar",
      policies: 'forbid(principal, action, resource in Tag::"fs");',
    });
    expect(tagged.covers("read_file")).toBe(true);
    const typed = await compileCedar({ file: "t.cedar", policies: "forbid(principal, action, resource is Tool);" });
    expect(typed.covers("read_file")).toBe(true);
  });

  it("an empty policy set covers nothing and decides none", async () => {
    const empty = await compileCedar({ file: "empty.cedar", policies: "// nothing yet\n" });
    expect(empty.covers("rm")).toBe(false);
    expect(empty.policies).toEqual([]);
    expect(empty.decide({ tool: "rm" })).toEqual({ effect: "none", policies: [] });
  });
});

describe("compileCedar: options", () => {
  it("refuses unknown option keys with a hint", async () => {
    const error = await rejection(compileCedar({ file: "a", policies: "", shema: SCHEMA } as never));
    expect(error.code).toBe("TOOLWARE_UNKNOWN_OPTION");
    expect(error.message).toMatch(/did you mean `schema`\?/);
  });

  it("refuses wrong types", async () => {
    for (const options of [
      null,
      { file: "a" },
      { file: 1, policies: "" },
      { file: "a", policies: "", schema: 1 },
      { file: "a", policies: "", locate: "x" },
    ]) {
      const error = await rejection(compileCedar(options as never));
      expect(error.code).toBe("TOOLWARE_INVALID_OPTION");
    }
  });

  it("two engines with different policies decide independently", async () => {
    const a = await compileCedar({ file: "a.cedar", policies: "forbid(principal, action, resource);" });
    const b = await compileCedar({ file: "b.cedar", policies: "permit(principal, action, resource);" });
    const again = await compileCedar({ file: "a2.cedar", policies: "forbid(principal, action, resource);" });
    expect([a, b, again].map((e) => e.decide({ tool: "x" }).effect)).toEqual(["deny", "allow", "deny"]);
  });
});
