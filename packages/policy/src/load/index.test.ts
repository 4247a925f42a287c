import { ToolwareError, toolwareCode } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { checkPolicyObject, type PolicyLoadError, parsePolicyText } from "../index.js";

const HEAD = "version: 1\ndefault: deny\n";

function errorOf(f: () => unknown): PolicyLoadError {
  try {
    f();
  } catch (error) {
    expect(toolwareCode(error)).toBe("TOOLWARE_POLICY_INVALID");
    return error as PolicyLoadError;
  }
  throw new Error("expected a PolicyLoadError");
}

const parse = (text: string, file = "p.yaml") => parsePolicyText(text, { file });

describe("parsePolicyText", () => {
  it("reads a whole policy: durations in milliseconds, renamed keys, defaults left out", () => {
    const loaded = parse(`${HEAD}name: crew
stores: { default: "redis://127.0.0.1:6379" }
approval: { timeout: 5m, onTimeout: deny }
rules:
  - name: juniors-cannot-delete
    match: { tools: [delete_file, "fs_*"], agents: [junior_agent], when: 'args.path.contains("..")' }
    decide: deny
    reason: junior agents cannot delete files
  - name: ask
    decide: approve
    approval: { timeout: 90s, message: Send? }
  - name: packs-only
    packs:
      rate-limit: { max: 30, per: 1m, key: tool+agent }
      timeout: { ms: { default: 500ms, perTool: { slow: 1h } } }
      retry: { minDelayMs: 0, maxDelayMs: 2s, jitter: 0.5 }
`);
    const doc = loaded.document;
    expect(doc.approval).toEqual({ timeoutMs: 300_000, onTimeout: "deny" });
    expect(doc.mode).toBeUndefined();
    expect(doc.rules.map((r) => r.name)).toEqual(["juniors-cannot-delete", "ask", "packs-only"]);
    expect(doc.rules[1]?.approval).toEqual({ timeoutMs: 90_000, message: "Send?" });
    expect(doc.rules[2]?.packs?.["rate-limit"]).toEqual({ max: 30, per: 60_000, key: "tool+agent" });
    expect(doc.rules[2]?.packs?.timeout?.ms).toEqual({ default: 500, perTool: { slow: 3_600_000 } });
    expect(doc.rules[2]?.packs?.retry).toEqual({ minDelayMs: 0, maxDelayMs: 2000, jitter: 0.5 });
    expect(Object.isFrozen(doc) && Object.isFrozen(doc.rules) && Object.isFrozen(doc.rules[0])).toBe(true);
    expect(loaded.file).toBe("p.yaml");
  });

  it("locates document keys, renamed ones at the key written, and the nearest enclosing key otherwise", () => {
    const loaded = parse(`${HEAD}rules:\n  - name: a\n    decide: approve\n    approval:\n      timeout: 2m\n`);
    expect(loaded.locate(["rules", 0])).toEqual({ file: "p.yaml", line: 4, column: 5 });
    expect(loaded.locate(["rules", 0, "approval", "timeoutMs"])).toEqual({ file: "p.yaml", line: 7, column: 16 });
    expect(loaded.locate(["rules", 0, "match", "when"])).toEqual({ file: "p.yaml", line: 4, column: 5 });
    expect(checkPolicyObject({ version: 1, default: "allow", rules: [] }).locate(["rules"])).toBeUndefined();
  });

  it("lists every problem at once, each FILE:LINE:COLUMN with its key path and a did-you-mean hint", () => {
    const error = errorOf(() =>
      parse("version: 1\ndefualt: deny\nrules:\n  - name: a\n    decide: alow\n    match: { tols: [x] }\n"),
    );
    expect(error).toBeInstanceOf(ToolwareError);
    expect(error.issues.map((i) => [i.line, i.column, i.path, i.hint])).toEqual([
      [1, 1, [], undefined],
      [2, 1, [], "default"],
      [5, 13, ["rules", 0, "decide"], "allow"],
      [6, 14, ["rules", 0, "match"], "tools"],
    ]);
    const lines = error.message.split("\n");
    expect(lines[0]).toBe("toolware: policy p.yaml has 4 problems:");
    expect(lines[1]).toBe("p.yaml:1:1: missing `default`: the decision when no rule decides.");
    expect(lines[2]).toMatch(/^p\.yaml:2:1: unknown key `defualt` \(known keys: .*\) \(did you mean "default"\?\)$/);
    expect(lines[3]).toBe(
      'p.yaml:5:13: rules[0].decide: must be one of allow, deny, approve, got "alow" (did you mean "allow"?)',
    );
    expect(lines[4]).toMatch(/^p\.yaml:6:14: rules\[0\]\.match: unknown key `tols` .*\(did you mean "tools"\?\)$/);
  });

  it("points a key written in the wrong place at where it goes", () => {
    const error = errorOf(() => parse(`${HEAD}rules:\n  - name: a\n    decide: deny\n    when: args.x\n`));
    expect(error.issues[0]).toMatchObject({ line: 6, column: 5, hint: "match.when" });
  });

  it("refuses wrong types, enums and ranges with what was given", () => {
    const error = errorOf(() =>
      parse(`version: 2\ndefault: yes\nmode: 1\nrules:
  - name: a
    packs:
      rate-limit: { max: 0, per: "5 min" }
      cache: { scope: "user", maxEntries: 1.5 }
      loop-guard: { maxRepeats: true }
      retry: { jitter: 2, retries: "3" }
      audit: { file: "" }
`),
    );
    const messages = error.issues.map((i) => `${i.path.join(".")}: ${i.message}${i.hint ? ` [${i.hint}]` : ""}`);
    expect(messages).toEqual([
      "version: must be a whole number from 1 to 1, got 2",
      'default: must be one of allow, deny, got "yes"',
      "mode: must be one of enforce, shadow, got number 1",
      "rules.0.packs.rate-limit.max: must be a whole number ≥ 1, got 0",
      'rules.0.packs.rate-limit.per: must be a duration such as "500ms", "90s", "5m", "1h", or milliseconds, got "5 min" [5m]',
      'rules.0.packs.cache.scope: must be one of global, agent, crew, got "user"',
      "rules.0.packs.cache.maxEntries: must be a whole number ≥ 1, got 1.5",
      "rules.0.packs.loop-guard.maxRepeats: must be false, got boolean true",
      "rules.0.packs.retry.jitter: must be a number from 0 to 1, got 2",
      'rules.0.packs.retry.retries: must be a whole number from 0 to 100, got string "3" (a number is written without quotes) [3]',
      "rules.0.packs.audit.file: must not be empty",
    ]);
  });

  it("says YAML 1.2 reads yes and no as strings where a boolean is due", () => {
    const error = errorOf(() =>
      parse(`${HEAD}rules:\n  - name: a\n    decide: deny\n    match: { annotations: { readOnlyHint: no } }\n`),
    );
    expect(error.issues[0]).toMatchObject({
      hint: "false",
      path: ["rules", 0, "match", "annotations", "readOnlyHint"],
    });
    expect(error.issues[0]?.message).toContain("YAML 1.2 reads yes, no, on and off as strings");
  });

  it("keeps `reason` and `approval` where they mean something, and rule names unique", () => {
    const error = errorOf(() =>
      parse(`version: 1\ndefault: allow\ndefaultReason: closed\nrules:
  - name: a
    decide: allow
    reason: never read
    approval: { timeout: 1m }
  - name: b
  - name: a
    decide: deny
`),
    );
    expect(error.issues.map((i) => [i.line, i.path.join("."), i.message])).toEqual([
      [3, "defaultReason", "`defaultReason` is read only when `default: deny` decides"],
      [
        7,
        "rules.0.reason",
        "`reason` is what the agent reads when the rule denies: it needs `decide: deny` (or `approve`)",
      ],
      [8, "rules.0.approval", "`approval` applies only to a rule with `decide: approve`"],
      [9, "rules.1", "the rule does nothing: give it `decide` or `packs`"],
    ]);
    const dup = errorOf(() => parse(`${HEAD}rules:\n  - { name: a, decide: deny }\n  - { name: a, decide: allow }\n`));
    expect(dup.issues).toEqual([
      expect.objectContaining({ line: 5, column: 5, path: ["rules", 1], message: expect.stringContaining("rules[0]") }),
    ]);
  });

  it("checks store URLs, rule names, cedar sources and pack names", () => {
    const error = errorOf(() =>
      parse(`${HEAD}stores: { default: "mysql://x" }\ncedar: { policies: "permit(principal, action, resource);", file: a.cedar }
rules:
  - name: "has space "
    decide: deny
  - name: x
    packs: { rate_limit: { max: 1, per: 1s }, redact: { replacers: [] } }
`),
    );
    expect(error.issues.map((i) => [i.path.join("."), i.hint])).toEqual([
      ["stores.default", undefined],
      ["cedar.file", undefined],
      ["rules.0.name", undefined],
      ["rules.1.packs", "rate-limit"],
      ["rules.1.packs.redact", undefined],
    ]);
    expect(error.issues[0]?.message).toContain('must be "memory" or a Redis URL');
    expect(error.issues[4]?.message).toContain("unknown key `replacers`");
  });

  it("refuses duplicate keys naming both positions", () => {
    const error = errorOf(() => parse(`${HEAD}default: allow\nrules: []\n`));
    expect(error.issues).toEqual([
      expect.objectContaining({ line: 3, column: 1, message: "`default` is given twice (first at line 2, column 1)" }),
    ]);
  });

  it("refuses non-string keys, __proto__ and constructor as unknown keys, and keeps a tool named __proto__", () => {
    const error = errorOf(() => parse(`${HEAD}rules: []\n1: x\n__proto__: { default: allow }\nconstructor: {}\n`));
    expect(error.issues.map((i) => i.message.split(" (")[0])).toEqual([
      "keys are strings, got the number 1",
      "unknown key `__proto__`",
      "unknown key `constructor`",
    ]);
    const loaded = parse(
      `${HEAD}rules:\n  - name: t\n    packs: { timeout: { ms: { perTool: { __proto__: 1s } } } }\n`,
    );
    const perTool = loaded.document.rules[0]?.packs?.timeout?.ms as { perTool: Record<string, number> };
    expect(Object.keys(perTool.perTool)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(perTool.perTool)).toBeNull();
    expect(({} as Record<string, unknown>).default).toBeUndefined();
  });

  it("reads a BOM, CRLF line ends, and refuses tabs in indentation and a second document", () => {
    const crlf = parse(
      `\uFEFF${HEAD}rules:\r\n  - name: a\r\n    decide: deny\r\n`.replace(/\n/g, "\r\n").replace(/\r\r/g, "\r"),
    );
    expect(crlf.document.rules[0]?.decide).toBe("deny");
    expect(crlf.locate(["rules", 0, "decide"])).toMatchObject({ line: 5, column: 13 });
    const tabs = errorOf(() => parse(`${HEAD}rules:\n\t- name: a\n`));
    expect(tabs.issues[0]).toMatchObject({ line: 4, message: expect.stringContaining("tab") });
    const two = errorOf(() => parse(`${HEAD}rules: []\n---\n${HEAD}rules: []\n`));
    expect(two.issues).toEqual([
      expect.objectContaining({ line: 4, message: expect.stringContaining("one YAML document") }),
    ]);
  });

  it("refuses an empty file, a file that is no map, and reports YAML syntax errors at their place", () => {
    expect(errorOf(() => parse("")).issues[0]?.message).toContain("empty");
    expect(errorOf(() => parse("# only a comment\n")).issues[0]?.message).toContain("empty");
    expect(errorOf(() => parse("- a\n- b\n")).issues[0]?.message).toBe("must be a policy, got a list");
    const syntax = errorOf(() => parse(`${HEAD}rules: [\n  {name: a\n`));
    expect(syntax.issues[0]?.line).toBeGreaterThanOrEqual(3);
  });

  it("reads JSON, and reports a JSON syntax error with its line and column", () => {
    const loaded = parsePolicyText('{"version": 1, "default": "allow", "rules": [{"name": "a", "decide": "deny"}]}', {
      file: "p.json",
    });
    expect(loaded.document.rules[0]?.decide).toBe("deny");
    const error = errorOf(() =>
      parsePolicyText('{\n  "version": 1,\n  "default": "allow",\n  "rules": [,]\n}', { file: "p.json" }),
    );
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]?.message).toMatch(/^not valid JSON: /);
    expect(error.issues[0]?.line).toBe(4);
    // YAML-only syntax in a .json file is a JSON error, not a quiet YAML reading.
    const yamlish = errorOf(() => parsePolicyText("version: 1\ndefault: allow\nrules: []\n", { file: "p.json" }));
    expect(yamlish.issues[0]?.message).toMatch(/^not valid JSON/);
    expect(
      parsePolicyText("version: 1\ndefault: allow\nrules: []\n", { file: "p.json", format: "yaml" }).document.version,
    ).toBe(1);
  });

  it("refuses alias bombs, unknown and self-referring aliases, merge keys, and deep nesting, quickly", () => {
    const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(", ")}]`,
      );
    const start = performance.now();
    const error = errorOf(() => parse(`${lines.join("\n")}\n${HEAD}rules: []\n`));
    expect(performance.now() - start).toBeLessThan(5000);
    expect(error.issues).toEqual([expect.objectContaining({ message: expect.stringContaining("alias bomb") })]);
    expect(errorOf(() => parse(`${HEAD}rules: *nope\n`)).issues[0]?.message).toContain("names no anchor");
    expect(errorOf(() => parse(`${HEAD}rules: &r [*r]\n`)).issues[0]?.message).toMatch(/alias|anchor/);
    expect(
      errorOf(() => parse(`${HEAD}base: &b { decide: deny }\nrules: [{ name: a, <<: *b }]\n`)).issues.map(
        (i) => i.message.split(" (")[0],
      ),
    ).toEqual(["unknown key `base`", "the rule does nothing: give it `decide` or `packs`", 'unknown key "<<"']);
    const deep = `${HEAD}rules: ${"[".repeat(100_000)}`;
    expect(errorOf(() => parse(deep)).issues[0]?.message).toContain("nested more than 64 levels");
    const deepBlock = `${HEAD}x:\n${Array.from({ length: 200 }, (_, i) => `${" ".repeat(i + 1)}k:`).join("\n")}\n`;
    expect(errorOf(() => parse(deepBlock)).issues.length).toBeGreaterThan(0);
  });

  it("accepts aliases that repeat a value the file denies with", () => {
    const loaded = parse(
      `${HEAD}rules:\n  - name: a\n    match: { tools: &t [rm, mv] }\n    decide: deny\n  - name: b\n    match: { tools: *t }\n    decide: deny\n`,
    );
    expect(loaded.document.rules[1]?.match?.tools).toEqual(["rm", "mv"]);
  });

  it("refuses a text over the size limit before parsing it", () => {
    const huge = `${HEAD}rules: []\n#${"x".repeat(50 * 1024 * 1024)}`;
    const start = performance.now();
    const error = errorOf(() => parse(huge));
    expect(performance.now() - start).toBeLessThan(2000);
    expect(error.issues[0]?.message).toMatch(/^the file is 50\.0 MiB .*at most 1048576 bytes/);
  });

  it("refuses unknown options and a text that is no string", () => {
    expect(() => parsePolicyText("", { fiel: "x" } as never)).toThrow(/did you mean `file`/);
    expect(() => parsePolicyText(42 as never)).toThrow(expect.objectContaining({ code: "TOOLWARE_INVALID_OPTION" }));
    expect(() => parsePolicyText("", { format: "toml" } as never)).toThrow(/"yaml" or "json"/);
  });
});
