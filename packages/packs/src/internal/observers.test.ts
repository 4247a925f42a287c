// Failing observers of packs report where failing listeners do, and errors the packs report carry codes.
import { defineTool, scriptedHumanInput, type ToolCallHookContext, ToolHooks, toolwareCode } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { cache, canonicalJson } from "@toolware/packs/cache";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { forAgents, forTools, when } from "@toolware/packs/conditional";
import { debugLog } from "@toolware/packs/debug-log";
import { guardrails } from "@toolware/packs/guardrails";
import { rateLimit } from "@toolware/packs/rate-limit";
import { validate } from "@toolware/packs/validate";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";

const runs: string[] = [];
const tool = (name: string) => defineTool({ name, execute: () => runs.push(name) && `${name} done` });
const sendEmail = tool("send_email");

afterEach(() => {
  runs.length = 0;
  vi.restoreAllMocks();
});

function watched(answers: string[] = []) {
  const reported: { where: string; error: unknown }[] = [];
  const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
  const hooks = new ToolHooks({
    humanInput: scriptedHumanInput(answers),
    onListenerError: (where, error) => reported.push({ where, error }),
  });
  return { hooks, reported, consoleError };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("failing pack observers report through onListenerError", () => {
  it("approval: a throwing onDecision, whatever it throws, changes no decision", async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.boolean(), async (thrown, approve) => {
        const { hooks, reported, consoleError } = watched([approve ? "yes" : "no"]);
        hooks.use(
          approval({
            onDecision: () => {
              throw thrown;
            },
          }),
        );
        const before = runs.length;
        const out = await hooks.invoke(sendEmail, {});
        expect(out.status).toBe(approve ? "ok" : "blocked");
        expect(runs.length - before).toBe(approve ? 1 : 0);
        expect(reported).toHaveLength(1);
        expect(reported[0]?.where).toBe("approval.onDecision");
        expect(Object.is(reported[0]?.error, thrown)).toBe(true);
        expect(consoleError).not.toHaveBeenCalled();
        consoleError.mockRestore();
      }),
      { numRuns: 100 },
    );
  });

  it("approval: a guard still fails closed when both the observer and the provider fail", async () => {
    const { reported, consoleError } = watched();
    const hooks = new ToolHooks({
      humanInput: () => Promise.reject(new Error("no terminal")),
      onListenerError: (where, error) => reported.push({ where, error }),
    });
    hooks.use(
      approval({
        onDecision: () => {
          throw new Error("audit down");
        },
      }),
    );
    const out = await hooks.invoke(sendEmail, {});
    expect(out.status).toBe("blocked");
    expect(runs).toEqual([]);
    expect(reported.map((r) => r.where)).toEqual(["approval.onDecision"]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("guardrails: a throwing or rejecting onWarn reaches onListenerError; deny still blocks", async () => {
    const { hooks, reported, consoleError } = watched();
    hooks.use(
      guardrails({
        deny: ["delete_file"],
        warn: ["send_email", "post_message"],
        onWarn: (w) => {
          if (w.toolName === "send_email") throw new Error("logger down");
          return Promise.reject(new Error("async logger down")) as unknown as void;
        },
      }),
    );
    expect((await hooks.invoke(sendEmail, {})).status).toBe("ok");
    expect((await hooks.invoke(tool("post_message"), {})).status).toBe("ok");
    expect((await hooks.invoke(tool("delete_file"), {})).status).toBe("blocked");
    await settle();
    expect(reported.map((r) => [r.where, (r.error as Error).message])).toEqual([
      ["guardrails.onWarn", "logger down"],
      ["guardrails.onWarn", "async logger down"],
    ]);
    expect(runs).toEqual(["send_email", "post_message"]);
    expect(consoleError).not.toHaveBeenCalled();
  });

  it("falls back to console.error when onListenerError itself throws, and the call goes on", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
    const hooks = new ToolHooks({
      humanInput: scriptedHumanInput(["yes"]),
      onListenerError: () => {
        throw new Error("reporter down");
      },
    });
    hooks.use(
      approval({
        onDecision: () => {
          throw new Error("audit down");
        },
      }),
    );
    expect((await hooks.invoke(sendEmail, {})).status).toBe("ok");
    expect(consoleError).toHaveBeenCalledTimes(1);
    expect(consoleError.mock.calls[0]?.[0]).toBe('toolware: a listener of "approval.onDecision" failed:');
  });

  it("ctx.reportError is there for your own hooks too, and never throws", async () => {
    const { hooks, reported } = watched();
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    hooks.before((ctx: ToolCallHookContext) => {
      ctx.reportError("audit.write", new Error("disk full"));
      ctx.reportError("audit.write", revoked.proxy);
    });
    expect((await hooks.invoke(sendEmail, {})).status).toBe("ok");
    expect(reported.map((r) => r.where)).toEqual(["audit.write", "audit.write"]);
  });
});

describe("errors the packs report carry codes", () => {
  const codeOf = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return toolwareCode(e);
    }
    return undefined;
  };

  it("a key function that returns a non-string fails the guard closed, with TOOLWARE_INVALID_RETURN", async () => {
    const hooks = new ToolHooks();
    hooks.use(rateLimit({ max: 5, per: "1m", key: () => 42 as never }));
    const out = await hooks.invoke(sendEmail, {});
    expect(out.status).toBe("blocked");
    expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_RETURN");
    const breaker = new ToolHooks();
    breaker.use(circuitBreaker({ key: () => undefined as never }));
    const broken = await breaker.invoke(sendEmail, {});
    expect(broken.status).toBe("blocked");
    expect(toolwareCode(broken.error)).toBe("TOOLWARE_INVALID_RETURN");
    expect(runs).toEqual([]);
  });

  it("a schema that returns no result blocks, with TOOLWARE_INVALID_RETURN", async () => {
    const hooks = new ToolHooks();
    const broken = { "~standard": { version: 1, vendor: "x", validate: () => null } };
    hooks.use(validate({ schemas: { send_email: broken as never } }));
    const out = await hooks.invoke(sendEmail, {});
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe(
      "hook validate failed: toolware/validate: the schema for send_email returned null, not a result { value } or { issues }",
    );
    expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_RETURN");
  });

  it("a redact function that returns a non-string fails the observer (hook:error), not the call", async () => {
    const hooks = new ToolHooks();
    const codes: (string | undefined)[] = [];
    hooks.on("hook:error", ({ error }) => codes.push(toolwareCode(error)));
    hooks.use(debugLog({ logger: { info() {}, warn() {}, error() {} }, redact: () => 5 as never }));
    expect((await hooks.invoke(sendEmail, {})).status).toBe("ok");
    expect(codes).toEqual(["TOOLWARE_INVALID_RETURN", "TOOLWARE_INVALID_RETURN"]);
  });

  it("conditional arguments and canonical JSON carry codes", () => {
    expect(codeOf(() => when(5 as never))).toBe("TOOLWARE_INVALID_ARGUMENT");
    expect(codeOf(() => forTools([]))).toBe("TOOLWARE_INVALID_ARGUMENT");
    expect(codeOf(() => forTools([{ name: "  " }] as never))).toBe("TOOLWARE_INVALID_ARGUMENT");
    expect(codeOf(() => forAgents("!!"))).toBe("TOOLWARE_INVALID_ARGUMENT");
    expect(codeOf(() => when(() => true, (() => {}) as never))).toBe("TOOLWARE_INVALID_ARGUMENT");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(codeOf(() => canonicalJson(cyclic))).toBe("TOOLWARE_UNSERIALIZABLE_VALUE");
    expect(codeOf(() => canonicalJson(new Map()))).toBe("TOOLWARE_UNSERIALIZABLE_VALUE");
    expect(codeOf(() => canonicalJson(undefined))).toBe("TOOLWARE_UNSERIALIZABLE_VALUE");
  });

  it("cache.invalidate with an input that cannot be keyed rejects with a code", async () => {
    const c = cache({ tools: "*" });
    await expect(c.invalidate("send_email", { m: new Map() })).rejects.toMatchObject({
      code: "TOOLWARE_UNSERIALIZABLE_VALUE",
    });
  });

  it("requestHumanInput refuses bad arguments with codes; a hook that passes them fails, the call does not reject", async () => {
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes"]) });
    const codes: (string | undefined)[] = [];
    hooks.before(async (ctx) => {
      for (const ask of [
        () => ctx.requestHumanInput(5 as never),
        () => ctx.requestHumanInput("ok?", "", { timeoutMs: -1 }),
      ]) {
        await ask().catch((e: unknown) => codes.push(toolwareCode(e)));
      }
    });
    expect((await hooks.invoke(sendEmail, {})).status).toBe("ok");
    expect(codes).toEqual(["TOOLWARE_INVALID_ARGUMENT", "TOOLWARE_INVALID_OPTION"]);
  });
});
