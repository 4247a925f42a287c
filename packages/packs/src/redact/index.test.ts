import { defineTool, ToolHooks } from "@toolware/core";
import { cache } from "@toolware/packs/cache";
import { describe, expect, it } from "vitest";
import { redact, redactValue } from "./index.js";

const SECRET_TEXT = "key sk-proj-abc123def456ghi789jkl0 for bob@example.com, card 4111 1111 1111 1111";
const REDACTED_TEXT = "key [REDACTED] for [EMAIL-REDACTED], card [CARD-REDACTED]";
const textTool = defineTool({ name: "fetch_page", execute: () => SECRET_TEXT });
const record = { user: "bob@example.com", apiKey: 12345, card: 4111111111111111, note: "token=abc", ok: true };
const jsonTool = defineTool({ name: "get_user", execute: () => record });

describe("redact pack", () => {
  it("redacts answers from the cache too, with both packs at their default priorities", async () => {
    const hooks = new ToolHooks();
    hooks.use(cache({ tools: ["get_weather"], ttl: "10m" }));
    hooks.use(redact());
    let runs = 0;
    const weather = defineTool({
      name: "get_weather",
      execute: () => {
        runs++;
        return "sunny, contact bob@example.com";
      },
    });
    const first = await hooks.invoke(weather, {});
    const second = await hooks.invoke(weather, {});
    expect(runs).toBe(1);
    expect(second.trace.some((t) => t.action === "substituted")).toBe(true);
    expect(first.result).toBe("sunny, contact [EMAIL-REDACTED]");
    expect(second.result).toBe("sunny, contact [EMAIL-REDACTED]");
  });

  it("replaces the agent-facing result and leaves the raw result alone", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const out = await hooks.invoke(textTool, {});
    expect(out.result).toBe(REDACTED_TEXT);
    expect(out.raw).toBe(SECRET_TEXT);
    expect(out.trace.map((t) => t.action)).toEqual(["modified-result"]);
  });

  it("redacts structured results as values, so the JSON stays valid and secret keys are hidden", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const out = await hooks.invoke(jsonTool, {});
    expect(JSON.parse(out.result)).toEqual({
      user: "[EMAIL-REDACTED]",
      apiKey: "[REDACTED]",
      card: "[CARD-REDACTED]",
      note: "token=[REDACTED]",
      ok: true,
    });
    expect(out.raw).toBe(record);
    expect(record.apiKey).toBe(12345);
  });

  it("falls back to text when an inner hook rewrote the result, or structured is off", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    hooks.after((ctx) => `summary: ${ctx.toolResult}`, { priority: -2000 });
    const out = await hooks.invoke(jsonTool, {});
    expect(out.result).toBe(
      'summary: {"user":"[EMAIL-REDACTED]","apiKey":"[REDACTED]","card":[CARD-REDACTED],"note":"token=[REDACTED]","ok":true}',
    );
    const plain = new ToolHooks();
    plain.use(redact({ structured: false }));
    expect((await plain.invoke(jsonTool, {})).result).toContain('"apiKey":"[REDACTED]"');
  });

  it("runs innermost, so outer hooks and middlewares see the redacted result", async () => {
    const seen: string[] = [];
    const hooks = new ToolHooks();
    hooks.use(async (ctx, next) => {
      await next();
      seen.push(`middleware: ${ctx.toolResult}`);
    });
    hooks.after((ctx) => {
      seen.push(`after: ${ctx.toolResult}`);
    });
    hooks.use(redact());
    await hooks.invoke(textTool, {});
    expect(seen).toEqual([`middleware: ${REDACTED_TEXT}`, `after: ${REDACTED_TEXT}`]);
  });

  it("redacts failed and blocked calls' messages too", async () => {
    const failing = defineTool({
      name: "db_query",
      execute: () => {
        throw new Error("connect failed: postgres://app:hunter2@db:5432");
      },
    });
    const hooks = new ToolHooks();
    hooks.use(redact());
    const out = await hooks.invoke(failing, {});
    expect(out.status).toBe("error");
    expect(out.result).toBe(
      "Tool execution failed. Tool: db_query. Error: connect failed: postgres://app:[REDACTED]@db:5432",
    );
    hooks.before((ctx) => ctx.block(`no access for ${String(ctx.toolInput.who)}`), { priority: -3000 });
    const blocked = await hooks.invoke(textTool, { who: "eve@example.com" });
    expect(blocked.result).toBe(
      "Tool execution blocked by hook. Tool: fetch_page. Reason: no access for [EMAIL-REDACTED]",
    );
  });

  it("withholds the result when a replacer throws (fail closed)", async () => {
    const hooks = new ToolHooks({ onHookError: "continue" });
    hooks.use(
      redact({
        replacers: [
          () => {
            throw new Error("replacer bug");
          },
        ],
      }),
    );
    const out = await hooks.invoke(textTool, {});
    expect(out.status).toBe("blocked");
    expect(out.result).not.toContain("sk-proj");
    expect(out.result).toMatch(/^Tool result withheld by hook/);
  });

  it("offers a redacted copy of the input to loggers, computed on read", async () => {
    const logged: unknown[] = [];
    const hooks = new ToolHooks();
    hooks.use(redact({ inputsInLogs: true }));
    hooks.before((ctx) => {
      logged.push(ctx.state.redactedInput);
    });
    const input = { to: "bob@example.com", password: "hunter2", body: "hi" };
    await hooks.invoke(textTool, input);
    expect(logged).toEqual([{ to: "[EMAIL-REDACTED]", password: "[REDACTED]", body: "hi" }]);
    expect(input.password).toBe("hunter2");
  });

  it("exposes its compiled functions", () => {
    const pack = redact({ keys: ["pin_code"] });
    expect(pack.text("pin_code: 1234")).toBe("pin_code: [REDACTED]");
    expect(pack.value({ pinCode: 1234 })).toEqual({ pinCode: "[REDACTED]" });
  });

  it.each([
    [{ secrets: "yes" }, /`secrets` must be a boolean/],
    [{ keys: [""] }, /`keys`/],
    [{ patterns: [""] }, /patterns\[0\]/],
    [{ patterns: "x" }, /`patterns` must be an array/],
    [{ replacers: ["x"] }, /`replacers`/],
    [{ placeholders: { phone: "x" } }, /unknown placeholder `phone`/],
    [{ placeholders: { card: 1 } }, /placeholders.card must be a string/],
    [{ maxDepth: 0 }, /`maxDepth`/],
    [{ structured: 1 }, /`structured`/],
    [{ inputsInLogs: 1 }, /`inputsInLogs`/],
    [{ priority: Number.POSITIVE_INFINITY }, /`priority`/],
    [{ mask: true }, /unknown option `mask`/],
  ])("rejects %j", (options, error) => {
    expect(() => redact(options as never)).toThrow(/^toolware\/redact: /);
    expect(() => redact(options as never)).toThrow(error);
  });
});

describe("redactValue", () => {
  it("walks nested data, keys included, without changing the input", () => {
    const input = {
      list: [{ token: "t1" }, "mail me at a@b.io", 4111111111111111n],
      map: new Map<unknown, unknown>([
        ["password", "x"],
        ["k", "ghp_123456789012345678901234567890123456"],
      ]),
      set: new Set(["a@b.io"]),
      "c@d.io": 1,
      when: new Date(0),
      error: new Error("token=abc"),
      nothing: { password: null },
    };
    const out = redactValue(input) as Record<string, unknown>;
    expect(out.list).toEqual([{ token: "[REDACTED]" }, "mail me at [EMAIL-REDACTED]", "[CARD-REDACTED]"]);
    expect(out.map).toEqual(
      new Map([
        ["password", "[REDACTED]"],
        ["k", "[REDACTED]"],
      ]),
    );
    expect(out.set).toEqual(new Set(["[EMAIL-REDACTED]"]));
    expect(out["[EMAIL-REDACTED]"]).toBe(1);
    expect(out.when).toBe(input.when);
    expect(out.error).toEqual({ name: "Error", message: "token=[REDACTED]" });
    expect(out.nothing).toEqual({ password: null });
    expect(input.list[0]).toEqual({ token: "t1" });
  });

  it("keeps cycles and shared references, and bounds depth", () => {
    const shared = { email: "a@b.io" };
    const node: Record<string, unknown> = { shared, again: shared };
    node.self = node;
    const out = redactValue(node) as Record<string, unknown>;
    expect(out.self).toBe(out);
    expect(out.shared).toBe(out.again);
    expect(out.shared).toEqual({ email: "[EMAIL-REDACTED]" });
    let deep: unknown = "a@b.io";
    for (let i = 0; i < 200; i++) deep = [deep];
    expect(JSON.stringify(redactValue(deep, { maxDepth: 10 }))).toContain("[REDACTED] (nested too deeply)");
    expect(JSON.stringify(redactValue(deep))).not.toContain("a@b.io");
  });

  it("keeps an own __proto__ key as a key", () => {
    const input = JSON.parse('{"__proto__": {"password": "x"}}') as object;
    const out = redactValue(input) as object;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ password: "[REDACTED]" });
  });
});
