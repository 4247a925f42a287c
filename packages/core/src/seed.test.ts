// Every code sample of the seed document (CrewAI's tool-call-hook guide), written in TypeScript and
// checked to behave as the document says.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type AfterToolCallHookType,
  Agent,
  afterToolCall,
  afterToolCallCrew,
  type BeforeToolCallHookType,
  beforeToolCall,
  beforeToolCallCrew,
  Crew,
  clearAfterToolCallHooks,
  clearAllToolCallHooks,
  clearBeforeToolCallHooks,
  defaultToolHooks,
  defineTool,
  getAfterToolCallHooks,
  getBeforeToolCallHooks,
  registerAfterToolCallHook,
  registerBeforeToolCallHook,
  scriptedHumanInput,
  Task,
  type ToolCallHookContext,
  unregisterAfterToolCallHook,
  unregisterBeforeToolCallHook,
} from "./index.js";

declare module "./types.js" {
  interface ToolCallState {
    startTime?: number;
  }
}

const tool = (name: string, execute: (input: Record<string, unknown>) => unknown = (input) => input) =>
  defineTool({ name, execute });
const invoke = (name: string, input: Record<string, unknown> = {}, bindings = {}) =>
  defaultToolHooks.invoke(tool(name), input, bindings);

afterEach(() => {
  // 最佳实践 7: clean hooks between tests.
  clearAllToolCallHooks();
  defaultToolHooks.humanInput = scriptedHumanInput([]);
});

describe("修改工具输入 (modifying inputs)", () => {
  it("✅ in-place modification reaches the tool", async () => {
    const sanitizeInput = (context: ToolCallHookContext): void => {
      context.toolInput.query = String(context.toolInput.query).toLowerCase();
    };
    registerBeforeToolCallHook(sanitizeInput);
    await expect(invoke("web_search", { query: "CrewAI" })).resolves.toMatchObject({ raw: { query: "crewai" } });
  });

  it("❌ replacing the input is refused loudly instead of being silently ignored", async () => {
    const wrongApproach = (context: ToolCallHookContext): void => {
      (context as { toolInput: unknown }).toolInput = { query: "new query" };
    };
    registerBeforeToolCallHook(wrongApproach);
    const outcome = await invoke("web_search", { query: "old" });
    expect(outcome.status).toBe("blocked");
    expect(outcome.reason).toMatch(/cannot be reassigned; mutate it in place/);
  });
});

describe("注册方式 (registration)", () => {
  it("1. global registration runs for every tool call", async () => {
    const lines: string[] = [];
    function logToolCall(context: ToolCallHookContext) {
      lines.push(`Tool: ${context.toolName}`, `Input: ${JSON.stringify(context.toolInput)}`);
      return undefined;
    }
    registerBeforeToolCallHook(logToolCall);
    await invoke("web_search", { query: "x" });
    expect(lines).toEqual(["Tool: web_search", 'Input: {"query":"x"}']);
  });

  it("2. decorator style: block dangerous tools, sanitise results", async () => {
    const printed: string[] = [];
    beforeToolCall(function blockDangerousTools(context) {
      const dangerousTools = ["delete_database", "drop_table", "rm_rf"];
      if (dangerousTools.includes(context.toolName)) {
        printed.push(`⛔ Blocked dangerous tool: ${context.toolName}`);
        return false;
      }
      return undefined;
    });
    afterToolCall(function sanitizeResults(context) {
      if (context.toolResult?.toLowerCase().includes("password")) {
        return context.toolResult.replace("password", "[REDACTED]");
      }
      return undefined;
    });
    expect((await invoke("drop_table")).status).toBe("blocked");
    expect(printed).toEqual(["⛔ Blocked dangerous tool: drop_table"]);
    const read = await defaultToolHooks.invoke(
      defineTool({ name: "read", execute: () => "the password is hunter2" }),
      {},
    );
    expect(read.result).toBe("the [REDACTED] is hunter2");
  });

  it("3. crew-scoped hooks apply to that crew only", async () => {
    class MyProjCrew extends Crew {
      printed: string[] = [];

      @beforeToolCallCrew
      validateToolInputs(context: ToolCallHookContext) {
        if (context.toolName === "web_search" && !context.toolInput.query) {
          this.printed.push("❌ Invalid search query");
          return false;
        }
        return undefined;
      }

      @afterToolCallCrew
      logToolResults(context: ToolCallHookContext) {
        this.printed.push(`✅ ${context.toolName} completed`);
        return undefined;
      }
    }
    const crew = new MyProjCrew({ agents: [new Agent({ role: "researcher" })] });
    expect((await invoke("web_search", {}, { crew })).status).toBe("blocked");
    expect((await invoke("web_search", {})).status).toBe("ok");
    expect(crew.printed).toEqual(["❌ Invalid search query", "✅ web_search completed"]);
  });
});

describe("常见用途 (common uses)", () => {
  it("1. safety guardrails block destructive tools and warn on sensitive ones", async () => {
    const printed: string[] = [];
    registerBeforeToolCallHook((context) => {
      const destructiveTools = ["delete_file", "drop_table", "remove_user", "system_shutdown"];
      if (destructiveTools.includes(context.toolName)) {
        printed.push(`🛑 Blocked destructive tool: ${context.toolName}`);
        return false;
      }
      const sensitiveTools = ["send_email", "post_to_social_media", "charge_payment"];
      if (sensitiveTools.includes(context.toolName)) printed.push(`⚠️  Executing sensitive tool: ${context.toolName}`);
      return undefined;
    });
    expect((await invoke("delete_file")).status).toBe("blocked");
    expect((await invoke("send_email")).status).toBe("ok");
    expect(printed).toEqual(["🛑 Blocked destructive tool: delete_file", "⚠️  Executing sensitive tool: send_email"]);
  });

  it("2. a human approval gate approves only on yes", async () => {
    defaultToolHooks.humanInput = scriptedHumanInput(["yes", "no", "YES"]);
    registerBeforeToolCallHook(async (context) => {
      const approvalRequired = ["send_email", "make_purchase", "delete_file", "post_message"];
      if (approvalRequired.includes(context.toolName)) {
        const response = await context.requestHumanInput(
          `Approve ${context.toolName}?`,
          `Input: ${JSON.stringify(context.toolInput)}\nType 'yes' to approve:`,
        );
        if (response.toLowerCase() !== "yes") return false;
      }
      return undefined;
    });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await invoke("send_email", { to: "a@b.c" })).status);
    expect(statuses).toEqual(["ok", "blocked", "ok"]);
    expect((await invoke("web_search")).status).toBe("ok");
    // No answer left: fail closed instead of letting the tool run (CrewAI issue 6859).
    expect((await invoke("delete_file")).status).toBe("blocked");
  });

  it("3. input validation and sanitising", async () => {
    registerBeforeToolCallHook((context) => {
      if (context.toolName === "web_search") {
        const query = String(context.toolInput.query ?? "");
        if (query.length < 3) return false;
        context.toolInput.query = query.trim().toLowerCase();
      }
      if (context.toolName === "read_file") {
        const path = String(context.toolInput.path ?? "");
        if (path.includes("..") || path.startsWith("/")) return false;
      }
      return undefined;
    });
    expect((await invoke("web_search", { query: "ab" })).status).toBe("blocked");
    expect((await invoke("web_search", { query: "  Hello " })).raw).toEqual({ query: "hello" });
    expect((await invoke("read_file", { path: "../etc/passwd" })).status).toBe("blocked");
    expect((await invoke("read_file", { path: "/etc/passwd" })).status).toBe("blocked");
    expect((await invoke("read_file", { path: "notes.md" })).status).toBe("ok");
  });

  it("4. result sanitising removes keys, emails and card numbers", async () => {
    registerAfterToolCallHook((context) => {
      if (!context.toolResult) return undefined;
      let result = context.toolResult;
      result = result.replace(/(api[_-]?key|token)["']?\s*[:=]\s*["']?[\w-]+/gi, "$1: [REDACTED]");
      result = result.replace(/\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b/g, "[EMAIL-REDACTED]");
      result = result.replace(/\b\d{4}[- ]?\d{4}[- ]?\d{4}[- ]?\d{4}\b/g, "[CARD-REDACTED]");
      return result;
    });
    const leaky = defineTool({
      name: "fetch",
      execute: () => "api_key=abc123 mail bob@example.com card 4111 1111 1111 1111",
    });
    const outcome = await defaultToolHooks.invoke(leaky, {});
    expect(outcome.result).toBe("api_key: [REDACTED] mail [EMAIL-REDACTED] card [CARD-REDACTED]");
    expect(outcome.raw).toBe("api_key=abc123 mail bob@example.com card 4111 1111 1111 1111");
  });

  it("5. usage analytics without polluting the tool input (ctx.state)", async () => {
    const stats = new Map<string, { count: number; totalTime: number; failures: number }>();
    registerBeforeToolCallHook((context) => {
      context.state.startTime = performance.now();
    });
    registerAfterToolCallHook((context) => {
      const duration = performance.now() - (context.state.startTime ?? performance.now());
      const s = stats.get(context.toolName) ?? { count: 0, totalTime: 0, failures: 0 };
      s.count++;
      s.totalTime += duration;
      if (!context.toolResult || context.status === "error") s.failures++;
      stats.set(context.toolName, s);
      return undefined;
    });
    const seenInput = vi.fn();
    await defaultToolHooks.invoke(defineTool({ name: "calc", execute: seenInput }), { x: 1 });
    await defaultToolHooks.invoke(
      defineTool({
        name: "calc",
        execute: () => {
          throw new Error("bad");
        },
      }),
      {},
    );
    expect(seenInput).toHaveBeenCalledWith({ x: 1 }, expect.anything());
    expect(stats.get("calc")).toMatchObject({ count: 2, failures: 2 });
  });

  it("6. rate limiting: at most 10 calls per minute per tool", async () => {
    const history = new Map<string, number[]>();
    let now = 0;
    registerBeforeToolCallHook((context) => {
      const calls = (history.get(context.toolName) ?? []).filter((t) => now - t < 60_000);
      if (calls.length >= 10) {
        context.block(`Rate limit exceeded for ${context.toolName}`);
        return undefined;
      }
      calls.push(now);
      history.set(context.toolName, calls);
      return undefined;
    });
    const statuses: string[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await invoke("api")).status);
    now = 60_001;
    statuses.push((await invoke("api")).status);
    expect(statuses.filter((s) => s === "ok")).toHaveLength(11);
    expect(statuses.slice(10, 12)).toEqual(["blocked", "blocked"]);
  });

  it("7. caching answers from the cache without running the tool (CrewAI cannot)", async () => {
    const cache = new Map<string, unknown>();
    const key = (ctx: ToolCallHookContext) =>
      `${ctx.toolName}:${JSON.stringify(Object.fromEntries(Object.entries(ctx.toolInput).sort()))}`;
    registerBeforeToolCallHook((context) => {
      const hit = cache.get(key(context));
      if (hit !== undefined) context.respond(hit);
    });
    registerAfterToolCallHook((context) => {
      if (context.status === "ok" && context.toolRan) cache.set(key(context), context.rawToolResult);
      return undefined;
    });
    const execute = vi.fn((input: Record<string, unknown>) => `weather in ${String(input.city)}`);
    const weather = defineTool({ name: "weather", execute });
    const first = await defaultToolHooks.invoke(weather, { city: "Paris", unit: "C" });
    const second = await defaultToolHooks.invoke(weather, { unit: "C", city: "Paris" });
    expect(first.result).toBe(second.result);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(second.trace[0]?.action).toBe("substituted");
  });

  it("8. debug logging shows agent, task, input and a result preview", async () => {
    const lines: string[] = [];
    registerBeforeToolCallHook((context) => {
      lines.push(
        `Tool: ${context.toolName}`,
        `Agent: ${context.agent ? context.agent.role : "Unknown"}`,
        `Task: ${context.task ? context.task.description.slice(0, 50) : "Unknown"}`,
      );
    });
    registerAfterToolCallHook((context) => {
      lines.push(
        context.toolResult ? `✅ Result Preview: ${context.toolResult.slice(0, 200)}` : "⚠️  No result returned",
      );
      return undefined;
    });
    await invoke(
      "web_search",
      { q: 1 },
      { agent: new Agent({ role: "researcher" }), task: new Task({ description: "Find" }) },
    );
    await defaultToolHooks.invoke(defineTool({ name: "noop", execute: () => undefined }), {});
    expect(lines).toEqual([
      "Tool: web_search",
      "Agent: researcher",
      "Task: Find",
      '✅ Result Preview: {"q":1}',
      "Tool: noop",
      "Agent: Unknown",
      "Task: Unknown",
      "⚠️  No result returned",
    ]);
  });
});

describe("Hook 管理 (hook management)", () => {
  it("unregisters, clears and lists like CrewAI", () => {
    const myHook = () => undefined;
    registerBeforeToolCallHook(myHook);
    expect(unregisterBeforeToolCallHook(myHook)).toBe(true);
    expect(unregisterBeforeToolCallHook(myHook)).toBe(false);

    const after = () => undefined;
    registerBeforeToolCallHook(() => undefined);
    registerBeforeToolCallHook(() => undefined);
    registerAfterToolCallHook(after);
    const before = getBeforeToolCallHooks();
    before.pop();
    expect(getBeforeToolCallHooks()).toHaveLength(2);
    expect(getAfterToolCallHooks()).toEqual([after]);
    expect(unregisterAfterToolCallHook(after)).toBe(true);
    registerAfterToolCallHook(after);
    expect(clearBeforeToolCallHooks()).toBe(2);
    expect(clearAfterToolCallHooks()).toBe(1);
    registerBeforeToolCallHook(() => undefined);
    registerAfterToolCallHook(after);
    registerAfterToolCallHook(after);
    expect(clearAllToolCallHooks()).toEqual([1, 2]);
    expect(defaultToolHooks.list()).toEqual([]);
  });
});

describe("高级模式 (advanced patterns)", () => {
  it("conditional blocking by agent role and task", async () => {
    registerBeforeToolCallHook((context) => {
      if (context.agent?.role === "junior_agent" && ["delete_file", "send_email"].includes(context.toolName)) {
        return false;
      }
      if (context.task?.description.toLowerCase().includes("sensitive") && context.toolName === "web_search") {
        return false;
      }
      return undefined;
    });
    const junior = new Agent({ role: "junior_agent" });
    const senior = new Agent({ role: "senior_agent" });
    const sensitive = new Task({ description: "Review the SENSITIVE contract" });
    expect((await invoke("delete_file", {}, { agent: junior })).status).toBe("blocked");
    expect((await invoke("delete_file", {}, { agent: senior })).status).toBe("ok");
    expect((await invoke("web_search", {}, { task: sensitive })).status).toBe("blocked");
    expect((await invoke("web_search", {}, { task: new Task({ description: "public" }) })).status).toBe("ok");
  });

  it("context-aware input changes", async () => {
    registerBeforeToolCallHook((context) => {
      if (context.agent?.role === "researcher" && context.toolName === "web_search") {
        context.toolInput.domains = ["edu", "gov", "org"];
      }
      if (context.task?.description.toLowerCase().includes("urgent") && context.toolName === "send_email") {
        context.toolInput.priority = "high";
      }
    });
    const researcher = new Agent({ role: "researcher" });
    expect((await invoke("web_search", { q: "x" }, { agent: researcher })).raw).toEqual({
      q: "x",
      domains: ["edu", "gov", "org"],
    });
    const urgent = new Task({ description: "URGENT: notify the team" });
    expect((await invoke("send_email", {}, { task: urgent })).raw).toEqual({ priority: "high" });
  });

  it("tool-chain monitoring warns after 5 calls in a row", async () => {
    const chain: { tool: string; agent: string }[] = [];
    const warnings: string[] = [];
    registerBeforeToolCallHook((context) => {
      chain.push({ tool: context.toolName, agent: context.agent?.role ?? "Unknown" });
      const recent = chain.slice(-5);
      if (recent.length === 5 && recent.every((c) => c.tool === context.toolName)) {
        warnings.push(`⚠️  Warning: ${context.toolName} called 5 times in a row`);
      }
    });
    for (let i = 0; i < 6; i++) await invoke("web_search");
    expect(warnings).toEqual([
      "⚠️  Warning: web_search called 5 times in a row",
      "⚠️  Warning: web_search called 5 times in a row",
    ]);
  });
});

describe("错误处理, 类型安全, 与现有工具集成", () => {
  it("a hook that handles its own error can allow the call (fail open by choice)", async () => {
    const validateInput = (_input: Record<string, unknown>): boolean => {
      throw new Error("validator offline");
    };
    const printed: string[] = [];
    registerBeforeToolCallHook(function safeValidation(context) {
      try {
        if (!validateInput(context.toolInput)) return false;
      } catch (e) {
        printed.push(`⚠️ Hook error: ${(e as Error).message}`);
        return undefined;
      }
      return undefined;
    });
    expect((await invoke("t")).status).toBe("ok");
    expect(printed).toEqual(["⚠️ Hook error: validator offline"]);
  });

  it("explicitly typed hooks register type-safely", async () => {
    const myBeforeHook: BeforeToolCallHookType = () => undefined;
    const myAfterHook: AfterToolCallHookType = () => undefined;
    registerBeforeToolCallHook(myBeforeHook);
    registerAfterToolCallHook(myAfterHook);
    expect((await invoke("t")).status).toBe("ok");
  });

  it("wraps an existing validator and logs to an external logger", async () => {
    const existingValidator = (toolName: string, inputs: Record<string, unknown>) =>
      !(toolName === "transfer" && Number(inputs.amount) > 1000);
    const logger = { info: vi.fn() };
    registerBeforeToolCallHook((context) => {
      if (!existingValidator(context.toolName, context.toolInput)) return false;
      return undefined;
    });
    registerBeforeToolCallHook((context) => {
      logger.info(`Tool call: ${context.toolName}`, {
        tool_name: context.toolName,
        tool_input: context.toolInput,
        agent: context.agent?.role,
      });
    });
    expect((await invoke("transfer", { amount: 5000 })).status).toBe("blocked");
    expect((await invoke("transfer", { amount: 5 })).status).toBe("ok");
    expect(logger.info).toHaveBeenCalledTimes(1);
    expect(logger.info).toHaveBeenCalledWith("Tool call: transfer", {
      tool_name: "transfer",
      tool_input: { amount: 5 },
      agent: undefined,
    });
  });
});
