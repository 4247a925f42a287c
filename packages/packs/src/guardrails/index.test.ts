import { Agent, defineTool, Task, type Tool, ToolHooks } from "@toolware/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type GuardrailsWarning, guardrails } from "./index.js";

const runs: string[] = [];
function tool(name: string, extra: { tags?: string[]; destructive?: boolean } = {}): Tool {
  return defineTool({
    name,
    ...extra,
    execute: () => {
      runs.push(name);
      return `${name} done`;
    },
  });
}

afterEach(() => {
  runs.length = 0;
  vi.restoreAllMocks();
});

describe("guardrails: deny, allow, warn", () => {
  it("blocks a denied tool with a reason the agent reads, and never runs it", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: ["delete_file", "drop_table"] }));
    const out = await hooks.invoke(tool("drop_table"), {});
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe("drop_table is on the deny list (drop_table)");
    expect(out.result).toBe(`Tool execution blocked by hook. Tool: drop_table. Reason: ${out.reason}`);
    expect((await hooks.invoke(tool("read_file"), {})).status).toBe("ok");
    expect(runs).toEqual(["read_file"]);
  });

  it("with an allow list blocks everything else, and deny wins over allow", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ allow: ["read_*", "web_search"], deny: ["read_secrets"] }));
    expect((await hooks.invoke(tool("read_file"), {})).status).toBe("ok");
    expect((await hooks.invoke(tool("Web Search"), {})).status).toBe("ok");
    const other = await hooks.invoke(tool("send_email"), {});
    expect(other.reason).toBe("send_email is not on the allow list");
    const secret = await hooks.invoke(tool("read_secrets"), {});
    expect(secret.reason).toBe("read_secrets is on the deny list (read_secrets)");
    expect(runs).toEqual(["read_file", "Web Search"]);
  });

  it("reports warn-list tools to onWarn and still runs them", async () => {
    const seen: GuardrailsWarning[] = [];
    const hooks = new ToolHooks();
    hooks.use(guardrails({ warn: ["send_email", /^charge_/], onWarn: (w) => seen.push(w) }));
    const out = await hooks.invoke(tool("charge_payment"), { amount: 5 });
    expect(out.status).toBe("ok");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ toolName: "charge_payment", matched: "/^charge_/", scope: "global" });
    expect(seen[0]?.message).toBe("executing sensitive tool charge_payment (warn list: /^charge_/)");
    expect(seen[0]?.ctx?.toolInput).toEqual({ amount: 5 });
    await hooks.invoke(tool("read_file"), {});
    expect(seen).toHaveLength(1);
  });

  it("warns through console.warn by default", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const hooks = new ToolHooks();
    hooks.use(guardrails({ warn: ["send_email"] }));
    await hooks.invoke(tool("send_email"), {});
    expect(warn).toHaveBeenCalledWith(
      "toolware/guardrails: executing sensitive tool send_email (warn list: send_email)",
    );
  });

  it("never blocks because onWarn failed, sync or async", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const hooks = new ToolHooks();
    hooks.use(
      guardrails({
        warn: ["send_email", "post_message"],
        onWarn: (w) => {
          if (w.toolName === "send_email") throw new Error("logger down");
          return Promise.reject(new Error("async logger down")) as unknown as void;
        },
      }),
    );
    expect((await hooks.invoke(tool("send_email"), {})).status).toBe("ok");
    expect((await hooks.invoke(tool("post_message"), {})).status).toBe("ok");
    await new Promise((r) => setTimeout(r, 0));
    expect(error).toHaveBeenCalledTimes(2);
    expect(runs).toEqual(["send_email", "post_message"]);
  });

  it("matches tags and the destructive flag", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: [{ tag: "destructive" }, { tag: "Payments" }] }));
    const flagged = await hooks.invoke(tool("wipe", { destructive: true }), {});
    expect(flagged.reason).toBe("wipe is on the deny list (tag destructive)");
    expect((await hooks.invoke(tool("rm", { tags: ["destructive"] }), {})).status).toBe("blocked");
    expect((await hooks.invoke(tool("refund", { tags: ["payments"] }), {})).status).toBe("blocked");
    expect((await hooks.invoke(tool("list", { tags: ["read-only"] }), {})).status).toBe("ok");
    const strict = new ToolHooks();
    strict.use(guardrails({ allow: [{ destructive: false }] }));
    expect((await strict.invoke(tool("list"), {})).status).toBe("ok");
    expect((await strict.invoke(tool("wipe", { destructive: true }), {})).status).toBe("blocked");
  });
});

describe("guardrails: roles and conditional rules (the seed's junior_agent)", () => {
  const junior = new Agent({ role: "junior_agent" });
  const senior = new Agent({ role: "senior_agent" });

  it("applies byRole lists only to that role", async () => {
    const hooks = new ToolHooks();
    hooks.use(
      guardrails({ deny: ["drop_table"], byRole: { "Junior Agent": { deny: ["delete_file", "send_email"] } } }),
    );
    const out = await hooks.invoke(tool("delete_file"), {}, { agent: junior });
    expect(out.reason).toBe("delete_file is on the deny list of role Junior Agent (delete_file)");
    expect((await hooks.invoke(tool("send_email"), {}, { agent: junior })).status).toBe("blocked");
    expect((await hooks.invoke(tool("delete_file"), {}, { agent: senior })).status).toBe("ok");
    expect((await hooks.invoke(tool("delete_file"), {})).status).toBe("ok");
    expect((await hooks.invoke(tool("drop_table"), {}, { agent: senior })).status).toBe("blocked");
  });

  it("combines a role allow list with the global lists and role globs", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: ["read_secrets"], byRole: { "junior_*": { allow: ["read_*"] } } }));
    expect((await hooks.invoke(tool("read_file"), {}, { agent: junior })).status).toBe("ok");
    expect((await hooks.invoke(tool("read_secrets"), {}, { agent: junior })).reason).toBe(
      "read_secrets is on the deny list (read_secrets)",
    );
    expect((await hooks.invoke(tool("write_file"), {}, { agent: junior })).reason).toBe(
      "write_file is not on the allow list of role junior_*",
    );
    expect((await hooks.invoke(tool("write_file"), {}, { agent: senior })).status).toBe("ok");
  });

  it("applies rules when their predicate holds (web search blocked for sensitive tasks)", async () => {
    const hooks = new ToolHooks();
    const seen: string[] = [];
    hooks.use(
      guardrails({
        rules: [
          {
            name: "sensitive-task",
            when: (ctx) => ctx.task?.description.toLowerCase().includes("sensitive") === true,
            deny: ["web_search"],
            warn: ["read_file"],
          },
        ],
        onWarn: (w) => seen.push(w.message),
      }),
    );
    const sensitive = new Task({ description: "Summarise the SENSITIVE report" });
    const out = await hooks.invoke(tool("web_search"), {}, { task: sensitive, agent: junior });
    expect(out.reason).toBe("web_search is on the deny list of rule sensitive-task (web_search)");
    expect((await hooks.invoke(tool("web_search"), {}, { task: new Task({ description: "plan" }) })).status).toBe("ok");
    await hooks.invoke(tool("read_file"), {}, { task: sensitive });
    expect(seen).toEqual(["executing sensitive tool read_file (warn list, rule sensitive-task: read_file)"]);
  });

  it("fails closed when a rule predicate throws, even if the instance fails open", async () => {
    const hooks = new ToolHooks({ onHookError: "continue" });
    hooks.use(
      guardrails({
        rules: [
          {
            when: () => {
              throw new Error("policy service down");
            },
            deny: ["x"],
          },
        ],
      }),
    );
    const out = await hooks.invoke(tool("read_file"), {});
    expect(out.status).toBe("blocked");
    expect(out.reason).toContain("policy service down");
    expect(runs).toEqual([]);
  });
});

describe("guardrails: messages and check()", () => {
  it("uses a custom message, and blocks when the message function throws", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: ["delete_file"], message: (b) => `${b.kind}:${b.toolName}:${b.matched}` }));
    expect((await hooks.invoke(tool("Delete File"), {})).reason).toBe("deny:Delete File:delete_file");
    const fixed = new ToolHooks();
    fixed.use(guardrails({ deny: ["delete_file"], message: "not here" }));
    expect((await fixed.invoke(tool("delete_file"), {})).reason).toBe("not here");
    const broken = new ToolHooks();
    broken.use(
      guardrails({
        deny: ["delete_file"],
        message: () => {
          throw new Error("template bug");
        },
      }),
    );
    const out = await broken.invoke(tool("delete_file"), {});
    expect(out.status).toBe("blocked");
    expect(runs).toEqual([]);
  });

  it("check() decides without running anything", () => {
    const pack = guardrails({
      deny: [{ tag: "destructive" }],
      warn: ["send_email"],
      byRole: { intern: { deny: ["*"] } },
    });
    expect(pack.check({ toolName: "wipe", destructive: true })).toMatchObject({
      allowed: false,
      reason: "wipe is on the deny list (tag destructive)",
    });
    const ok = pack.check({ toolName: "send_email" });
    expect(ok.allowed).toBe(true);
    expect(ok.warnings.map((w) => w.matched)).toEqual(["send_email"]);
    expect(pack.check({ toolName: "send_email", role: "Intern" }).allowed).toBe(false);
    expect(() => pack.check(null as never)).toThrow(/toolware\/guardrails: check\(\)/);
  });
});

describe("guardrails: option validation", () => {
  it.each([
    [{}, /at least one of/],
    [null, /options object/],
    [{ deny: [] }, /deny: the list is empty/],
    [{ deny: ["---"] }, /matches nothing once normalised/],
    [{ deny: [42] }, /a tool matcher is/],
    [{ deny: [{ tag: "" }] }, /non-empty tag/],
    [{ deny: [{ tag: "x", extra: 1 }] }, /a tool matcher is/],
    [{ allow: [{ destructive: "yes" }] }, /takes true or false/],
    [{ deny: ["x"], colour: "red" }, /unknown option `colour`/],
    [{ byRole: { junior: { deny: ["x"], block: ["y"] } } }, /byRole.junior: unknown option `block`/],
    [{ byRole: [] }, /`byRole` must be an object/],
    [{ rules: [{ deny: ["x"] }] }, /rules\[0\] needs a `when/],
    [{ rules: {} }, /`rules` must be an array/],
    [{ deny: ["x"], onWarn: "log" }, /`onWarn` must be a function/],
    [{ deny: ["x"], message: 3 }, /`message` must be/],
    [{ deny: ["x"], unmatchableNames: "maybe" }, /unmatchableNames/],
    [{ deny: ["x"], priority: Number.NaN }, /priority/],
  ])("rejects %j", (options, error) => {
    expect(() => guardrails(options as never)).toThrow(TypeError);
    expect(() => guardrails(options as never)).toThrow(/^toolware\/guardrails: /);
    expect(() => guardrails(options as never)).toThrow(error);
  });
});
