import { describe, expect, it } from "vitest";
import { compileCedar, formatIssue, PolicyLoadError } from "../index.js";
import { rejection, SCHEMA } from "./test-fixtures.js";

/** The one issue of the load error, as the CLI prints it: `FILE:LINE:COLUMN: key path: message (hint)`. */
async function loadError(options: Parameters<typeof compileCedar>[0]): Promise<string> {
  const error = await rejection(compileCedar(options));
  expect(error.code).toBe("TOOLWARE_POLICY_INVALID");
  expect(error).toBeInstanceOf(PolicyLoadError);
  const { issues } = error as PolicyLoadError;
  expect(issues).toHaveLength(1);
  expect(error.message).toContain(formatIssue(issues[0] as (typeof issues)[0]));
  return formatIssue(issues[0] as (typeof issues)[0]);
}

describe("compileCedar: load errors name FILE:LINE:COLUMN", () => {
  it("a parse error, after non-ASCII text (Cedar counts UTF-8 bytes, the error counts characters)", async () => {
    const policies = "// règle: ünïcödé 🚀\npermit(principal, action, resource)\n  when { context.path like };";
    const message = await loadError({ file: "rules.cedar", policies });
    expect(message).toMatch(/^rules\.cedar:3:28: Cedar could not parse the policies: .*unexpected token `}`/);
  });

  it("inline policies: `locate` moves the position into the policy file (a YAML block)", async () => {
    // The YAML block starts on line 10 of the file, indented by 4 spaces.
    const locate = (line: number, column: number) => ({
      file: "toolware.policy.yaml",
      line: line + 9,
      column: column + 4,
    });
    const message = await loadError({
      file: "toolware.policy.yaml",
      policies: "permit(principal, action, resource);\nforbid(principal action, resource);",
      locate,
      path: ["cedar", "policies"],
    });
    expect(message).toMatch(/^toolware\.policy\.yaml:11:22: cedar\.policies: Cedar could not parse/);
  });

  it("a validation error against the schema, with Cedar's hint and the policy's @id", async () => {
    const policies =
      'permit(principal, action, resource);\n@id("mistyped")\nforbid(principal, action, resource) when { context.paht == "x" };';
    const message = await loadError({ file: "p.cedar", policies, schema: SCHEMA });
    expect(message).toMatch(
      /^p\.cedar:3:\d+: a Cedar policy does not match the schema: .*`mistyped`.*attribute `paht`/,
    );
    expect(message).toMatch(/did you mean `path`\?/);
  });

  it("a policy the schema makes impossible is refused (a misspelt `has` would switch it off)", async () => {
    const policies =
      'permit(principal, action, resource);\n@id("never")\nforbid(principal, action, resource) when { context has paht && context.paht == "x" };';
    const message = await loadError({ file: "p.cedar", policies, schema: SCHEMA });
    expect(message).toMatch(
      /^p\.cedar:2:1: Cedar policy `never` can never apply under the schema: policy is impossible/,
    );
  });

  it("an error in the schema names the schema file", async () => {
    const message = await loadError({
      file: "p.cedar",
      policies: "",
      schema: "entity Tool;\nentity Agent in [",
      schemaFile: "p.cedarschema",
    });
    expect(message).toMatch(/^p\.cedarschema:2:\d+: Cedar could not parse the schema/);
    const json = await loadError({
      file: "p.cedar",
      policies: "",
      schema: '{ "": { "entityTypes": ',
      schemaFile: "p.json",
    });
    expect(json).toMatch(/^p\.json:1:\d+: the Cedar schema is not valid JSON/);
  });

  it("a schema in JSON form is accepted", async () => {
    const json = JSON.stringify({
      "": {
        entityTypes: {
          Tool: { shape: { type: "Record", attributes: { destructive: { type: "Boolean" } } } },
          Agent: {},
        },
        actions: { call: { appliesTo: { principalTypes: ["Agent"], resourceTypes: ["Tool"] } } },
      },
    });
    const engine = await compileCedar({
      file: "p.cedar",
      policies: "forbid(principal, action, resource) when { resource.destructive };",
      schema: json,
    });
    expect(engine.decide({ tool: "rm" }).effect).toBe("deny");
  });

  it("a schema must describe what the engine sends: the action `call`, no attribute it never sends", async () => {
    const noCall = await loadError({
      file: "p.cedar",
      policies: "",
      schema: "entity Tool; action run appliesTo { principal: [Tool], resource: [Tool] };",
    });
    expect(noCall).toMatch(/declares no action `call`/);
    const extra = await loadError({
      file: "p.cedar",
      policies: "",
      schema: SCHEMA.replace("openWorld: Bool,", "openWorld: Bool,\n  owner: String,"),
      schemaFile: "s.cedarschema",
    });
    expect(extra).toMatch(/^s\.cedarschema:13:3: .*`Tool` the attribute `owner`, which the engine never sends/);
  });

  it("a scope that can never apply to a tool call is refused (a typo must not switch a policy off)", async () => {
    const cases: Array<[string, RegExp]> = [
      ['forbid(principal, action, resource == Tools::"rm");', /`resource == Tools` can never apply/],
      ['forbid(principal, action == Action::"cal", resource);', /action scope can never apply/],
      ['forbid(principal, action in [Action::"read", Action::"list"], resource);', /action scope can never apply/],
      ["forbid(principal is Tool, action, resource);", /`principal is Tool` can never apply/],
      ['forbid(principal is Agent in Tag::"x", action, resource);', /`principal in Tag` can never apply/],
    ];
    for (const [policies, expected] of cases) {
      expect(await loadError({ file: "s.cedar", policies: `\n  ${policies}` })).toMatch(
        new RegExp(`^s\\.cedar:2:3: Cedar policy policy0: .*${expected.source}`),
      );
    }
    const ok = await compileCedar({
      file: "s.cedar",
      policies: 'forbid(principal in Crew::"a", action in [Action::"call"], resource in Tag::"t");',
    });
    expect(ok.policies).toHaveLength(1);
  });

  it("annotations: unknown ones are refused with a hint; @requireApproval only on permit, with no value, true or false", async () => {
    expect(
      await loadError({ file: "a.cedar", policies: "@requireAproval permit(principal, action, resource);" }),
    ).toMatch(/unknown annotation @requireAproval .*\(did you mean "@requireApproval"\?\)$/);
    expect(await loadError({ file: "a.cedar", policies: '@advice("x") permit(principal, action, resource);' })).toMatch(
      /unknown annotation @advice on Cedar policy policy0 \(the engine reads/,
    );
    expect(
      await loadError({ file: "a.cedar", policies: '@requireApproval("yes") permit(principal, action, resource);' }),
    ).toMatch(/@requireApproval takes no value, "true" or "false", got "yes"/);
    expect(
      await loadError({ file: "a.cedar", policies: "@requireApproval forbid(principal, action, resource);" }),
    ).toMatch(/belongs on a `permit`/);
  });

  it("two policies with one @id are refused", async () => {
    const message = await loadError({
      file: "d.cedar",
      policies: '@id("x") permit(principal, action, resource);\n@id("x") forbid(principal, action, resource);',
    });
    expect(message).toMatch(/^d\.cedar:2:1: two Cedar policies are named `x` \(the other at line 1\)/);
  });

  it("templates are refused", async () => {
    expect(
      await loadError({ file: "t.cedar", policies: "permit(principal == ?principal, action, resource);" }),
    ).toMatch(/static policy set includes a template/);
  });

  it("strings and comments holding `;` do not split policies", async () => {
    const engine = await compileCedar({
      file: "s.cedar",
      policies:
        '// a; b\n@reason("no; never \\" ;") forbid(principal, action, resource) when { context.path like "*;*" };\npermit(principal, action, resource);',
    });
    expect(engine.policies.map((p) => [p.id, p.at.line, p.reason])).toEqual([
      ["policy0", 2, 'no; never " ;'],
      ["policy1", 3, undefined],
    ]);
    expect(engine.decide({ tool: "x", args: { path: "a;b" } })).toEqual({
      effect: "deny",
      policies: ["policy0"],
      reason: 'no; never " ;',
    });
  });
});
