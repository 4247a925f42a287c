import { Agent, Crew, scriptedHumanInput, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { PolicyLoadError } from "../load/index.js";
import type { PolicyEvent } from "./events.js";
import { loadPolicy } from "./load.js";
import { loadedDoc, tool } from "./test-fixtures.js";

const junior = new Agent({ role: "junior_agent", goal: "g", backstory: "b" });
const senior = new Agent({ role: "senior_agent", goal: "g", backstory: "b" });

async function stack(...args: Parameters<typeof loadPolicy>) {
  const policy = await loadPolicy(...args);
  const hooks = new ToolHooks({ humanInput: scriptedHumanInput([]) });
  hooks.use(policy);
  return { policy, hooks };
}

describe("loadPolicy: decisions", () => {
  it("denies with the rule's reason, names the rule in the trace and counts it", async () => {
    const { policy, hooks } = await stack(
      loadedDoc([
        {
          name: "juniors-cannot-delete",
          match: { tools: ["delete_file"], agents: ["junior_agent"] },
          decide: "deny",
          reason: "junior agents cannot delete files",
        },
      ]),
    );
    const out = await hooks.invoke(tool("delete_file"), { path: "a" }, { agent: junior });
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe("junior agents cannot delete files");
    expect(out.trace.find((e) => e.action === "blocked")?.hook).toBe("policy:juniors-cannot-delete");
    expect((await hooks.invoke(tool("delete_file"), { path: "a" }, { agent: senior })).status).toBe("ok");
    expect((await hooks.invoke(tool("delete_file"), { path: "a" })).status).toBe("ok");
    expect(policy.counters().rules["juniors-cannot-delete"]).toMatchObject({ matched: 1, denied: 1 });
    expect(policy.counters().calls).toBe(3);
  });

  it("deny beats allow whatever the order, and the file's default applies otherwise", async () => {
    const { hooks } = await stack(
      loadedDoc(
        [
          { name: "reads-ok", match: { tools: ["read_*"] }, decide: "allow" },
          {
            name: "no-secrets",
            match: { tools: ["*"], when: 'has(args.path) && args.path.contains("secret")' },
            decide: "deny",
            reason: "no secrets",
          },
        ],
        { default: "deny", defaultReason: "not on the list" },
      ),
    );
    const read = await hooks.invoke(tool("read_file"), { path: "notes" });
    expect(read.status).toBe("ok");
    expect(read.trace.some((e) => e.hook === "policy:reads-ok")).toBe(true);
    const secret = await hooks.invoke(tool("read_file"), { path: "secret.txt" });
    expect(secret.reason).toBe("no secrets");
    const other = await hooks.invoke(tool("write_file"), { path: "x" });
    expect(other.status).toBe("blocked");
    expect(other.reason).toBe("not on the list");
    expect(other.trace.find((e) => e.action === "blocked")?.hook).toBe("policy:default");
  });

  it("matches tags, MCP annotations (destructiveHint is tool.destructive, others the adapter's tags), crews and callers", async () => {
    const crew = new Crew({ name: "ops", agents: [junior], tasks: [] });
    const { hooks } = await stack(
      loadedDoc([
        { name: "payments", match: { tags: ["payments"] }, decide: "deny", reason: "payments" },
        {
          name: "destructive",
          match: { annotations: { destructiveHint: true } },
          decide: "deny",
          reason: "destructive",
        },
        {
          name: "writes",
          match: { annotations: { readOnlyHint: false }, crews: ["ops"] },
          decide: "deny",
          reason: "ops writes",
        },
        { name: "cli", match: { callers: ["cli-*"] }, decide: "deny", reason: "cli" },
      ]),
      { caller: (ctx) => (ctx.toolInput.who as string | undefined) ?? undefined },
    );
    expect((await hooks.invoke(tool("pay", { tags: ["payments"] }), {})).reason).toBe("payments");
    expect((await hooks.invoke(tool("rm", { destructive: true }), {})).reason).toBe("destructive");
    expect((await hooks.invoke(tool("get", { tags: ["read-only"] }), {}, { crew, agent: junior })).status).toBe("ok");
    expect((await hooks.invoke(tool("put"), {}, { crew, agent: junior })).reason).toBe("ops writes");
    expect((await hooks.invoke(tool("put"), { who: "cli-7" })).reason).toBe("cli");
    expect((await hooks.invoke(tool("put"), { who: "web" })).status).toBe("ok");
  });

  it("fails closed, naming the rule, when a condition errors or the caller cannot be resolved", async () => {
    const { hooks, policy } = await stack(
      loadedDoc([
        { name: "path-check", match: { tools: ["write_file"], when: 'args.path.startsWith("/tmp")' }, decide: "allow" },
      ]),
    );
    const out = await hooks.invoke(tool("write_file"), { content: "no path" });
    expect(out.status).toBe("blocked");
    expect(out.reason).toContain('policy rule "path-check" could not evaluate its condition');
    expect(policy.counters().rules["path-check"]?.denied).toBe(1);
    const broken = await stack(loadedDoc([]), {
      caller: () => {
        throw new Error("no session");
      },
    });
    const b = await broken.hooks.invoke(tool("x"), {});
    expect(b.status).toBe("blocked");
    expect(b.reason).toContain("no session");
  });

  it("asks a person for approve rules through the approval pack, with the rule's message", async () => {
    const human = scriptedHumanInput(["yes", "no"]);
    const { policy, hooks } = await stack(
      loadedDoc([
        {
          name: "ask-email",
          match: { tools: ["send_email"] },
          decide: "approve",
          approval: { message: "Send this email?" },
        },
      ]),
      { humanInput: human },
    );
    expect((await hooks.invoke(tool("send_email"), { to: "a" })).status).toBe("ok");
    const denied = await hooks.invoke(tool("send_email"), { to: "b" });
    expect(denied.status).toBe("blocked");
    expect(human.requests[0]?.prompt).toContain("Send this email?");
    expect(human.requests[0]?.prompt).toContain("policy rule ask-email");
    expect(policy.counters().rules["ask-email"]).toMatchObject({ asked: 2, approved: 1 });
  });

  it("a timeout denies by default and allows with onTimeout: allow", async () => {
    const silent = () => new Promise<string>(() => {});
    const deny = await stack(loadedDoc([{ name: "ask", decide: "approve", approval: { timeoutMs: 20 } }]), {
      humanInput: silent,
    });
    const d = await deny.hooks.invoke(tool("t"), {});
    expect(d.status).toBe("blocked");
    expect(d.reason).toContain("no answer within 20 ms");
    const allow = await stack(
      loadedDoc([{ name: "ask", decide: "approve" }], { approval: { timeoutMs: 20, onTimeout: "allow" } }),
      {
        humanInput: silent,
      },
    );
    expect((await allow.hooks.invoke(tool("t"), {})).status).toBe("ok");
  });

  it("asks through the ToolHooks' own provider when the policy has none", async () => {
    const policy = await loadPolicy(loadedDoc([{ name: "ask", decide: "approve" }]));
    const human = scriptedHumanInput(["y"]);
    const hooks = new ToolHooks({ humanInput: human });
    hooks.use(policy);
    expect((await hooks.invoke(tool("t"), {})).status).toBe("ok");
    expect(human.requests).toHaveLength(1);
  });
});

describe("loadPolicy: shadow mode", () => {
  it("a shadow file decides, counts and reports, and allows everything", async () => {
    const events: PolicyEvent[] = [];
    const { policy, hooks } = await stack(
      loadedDoc([{ name: "no-rm", match: { tools: ["rm"] }, decide: "deny", reason: "no" }], {
        mode: "shadow",
        default: "deny",
      }),
      { onEvent: (e) => events.push(e) },
    );
    expect((await hooks.invoke(tool("rm"), {})).status).toBe("ok");
    expect((await hooks.invoke(tool("ls"), {})).status).toBe("ok");
    expect(policy.counters().rules["no-rm"]?.shadowDenied).toBe(1);
    expect(policy.counters().default.shadowDenied).toBe(1);
    expect(events.filter((e) => e.type === "shadow").map((e) => (e.type === "shadow" ? e.rule : ""))).toEqual([
      "no-rm",
      "default",
    ]);
  });

  it("a rule can be in shadow while the file enforces; the mode option overrides both", async () => {
    const doc = loadedDoc([
      { name: "trial", mode: "shadow", match: { tools: ["rm"] }, decide: "deny" },
      { name: "hard", match: { tools: ["dd"] }, decide: "deny" },
    ]);
    const { hooks, policy } = await stack(doc);
    const rm = await hooks.invoke(tool("rm"), {});
    expect(rm.status).toBe("ok");
    expect(rm.trace.some((e) => e.hook === "policy:trial")).toBe(true);
    expect(rm.trace.some((e) => e.hook === "policy:trial" && e.action === "proceeded")).toBe(true);
    expect((await hooks.invoke(tool("dd"), {})).status).toBe("blocked");
    expect(policy.counters().rules.trial).toMatchObject({ shadowDenied: 1, denied: 0 });
    const all = await stack(doc, { mode: "shadow" });
    expect((await all.hooks.invoke(tool("dd"), {})).status).toBe("ok");
    expect(all.policy.counters().rules.hard?.shadowDenied).toBe(1);
  });
});

describe("loadPolicy: explain and state", () => {
  it("explain() says which rules match and why, without counting", async () => {
    const policy = await loadPolicy(
      loadedDoc([
        { name: "a", match: { tools: ["write_*"] }, packs: { "rate-limit": { max: 2, per: 1000 } } },
        {
          name: "b",
          match: { tools: ["write_file"], when: 'args.path.contains("..")' },
          decide: "deny",
          reason: "escape",
        },
      ]),
    );
    const e = policy.explain({ tool: "write_file", args: { path: "../etc/passwd" } });
    expect(e).toMatchObject({
      effect: "deny",
      rule: "b",
      reason: "escape",
      matched: ["a", "b"],
      packs: ["a/rate-limit"],
    });
    expect(e.rules.map((r) => r.matched)).toEqual([true, true]);
    expect(policy.counters().calls).toBe(0);
  });

  it("records the decision in ctx.state.policy for later hooks", async () => {
    const { hooks, policy } = await stack(loadedDoc([{ name: "ok", decide: "allow" }]));
    let seen: string | undefined;
    hooks.after((ctx) => {
      seen = policy.decisionOf(ctx)?.rule;
    });
    await hooks.invoke(tool("t"), {});
    expect(seen).toBe("ok");
  });
});

describe("loadPolicy: packs", () => {
  it("attaches the rule's packs only to the calls its match holds for", async () => {
    const { hooks } = await stack(
      loadedDoc([
        { name: "limit-writes", match: { tools: ["write_file"] }, packs: { "rate-limit": { max: 1, per: 60_000 } } },
      ]),
    );
    expect((await hooks.invoke(tool("write_file"), {})).status).toBe("ok");
    const second = await hooks.invoke(tool("write_file"), {});
    expect(second.status).toBe("blocked");
    expect(second.trace.find((e) => e.action === "blocked")?.hook).toMatch(/^policy:limit-writes:/);
    expect((await hooks.invoke(tool("read_file"), {})).status).toBe("ok");
    expect((await hooks.invoke(tool("read_file"), {})).status).toBe("ok");
  });

  it("redacts results and checks paths under a root", async () => {
    const { hooks } = await stack(
      loadedDoc([
        { name: "redact", packs: { redact: {} } },
        { name: "paths", match: { tools: ["read_file"] }, packs: { validate: { safePath: { root: "/work/data" } } } },
      ]),
    );
    const secret = defineSecret();
    expect((await hooks.invoke(secret, {})).result).not.toContain("sk-");
    expect((await hooks.invoke(tool("read_file"), { path: "../../etc/passwd" })).status).toBe("blocked");
    expect((await hooks.invoke(tool("read_file"), { path: "notes.txt" })).status).toBe("ok");
  });

  it("refuses a pack's bad options at load, pointing at the rule", async () => {
    const err = await loadPolicy(loadedDoc([{ name: "x", packs: { "rate-limit": { max: -1, per: 1000 } } }])).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(PolicyLoadError);
    expect(err.message).toContain("test.policy.yaml:10:");
    expect(err.message).toContain("rate-limit");
    const redis = await loadPolicy(
      loadedDoc([{ name: "x", packs: { "rate-limit": { max: 1, per: 1000, store: "redis://127.0.0.1:6379" } } }]),
    ).catch((e) => e);
    expect(redis.message).toContain("redisRateLimitStore");
  });
});

describe("loadPolicy: options and load errors", () => {
  it("refuses unknown options with a hint, and wrong types", async () => {
    await expect(loadPolicy(loadedDoc([]), { mdoe: "shadow" } as never)).rejects.toThrow(/did you mean "mode"/);
    await expect(loadPolicy(loadedDoc([]), { logger: () => {} } as never)).rejects.toThrow(/did you mean "onEvent"/);
    await expect(loadPolicy(loadedDoc([]), { mode: "off" } as never)).rejects.toThrow(/enforce/);
    await expect(loadPolicy(loadedDoc([]), { caller: "me" } as never)).rejects.toThrow(/caller/);
    await expect(loadPolicy(loadedDoc([]), { stores: { ratelimit: {} } } as never)).rejects.toThrow(
      /did you mean "rateLimit"/,
    );
  });

  it("a CEL condition that does not compile is a load error naming the rule and FILE:LINE:COLUMN", async () => {
    const err = await loadPolicy(
      loadedDoc([
        { name: "ok", decide: "allow" },
        { name: "broken", match: { when: "args.path ==" }, decide: "deny" },
      ]),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(PolicyLoadError);
    expect(err.message).toMatch(/test\.policy\.yaml:11:\d+: rules\[1\]\.match\.when: rule "broken"/);
    await expect(loadPolicy(loadedDoc([{ name: "n", match: { when: "1 + 2" } }]))).rejects.toThrow(/not a boolean/);
  });
});

function defineSecret() {
  return { ...tool("secret"), execute: () => "key sk-abcdefghijklmnopqrstuvwx1234" };
}
