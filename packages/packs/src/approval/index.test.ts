import {
  Agent,
  defineTool,
  type HumanInputProvider,
  type HumanInputRequest,
  scriptedHumanInput,
  ToolHooks,
} from "@toolware/core";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type ApprovalDecision, type ApprovalOptions, approval } from "./index.js";

const received: Record<string, unknown>[] = [];
const sendEmail = defineTool({
  name: "send_email",
  execute: (input: Record<string, unknown>) => {
    received.push({ ...input });
    return "sent";
  },
});
const readFile = defineTool({ name: "read_file", execute: () => "content" });

function setup(answers: HumanInputProvider | string[], options: ApprovalOptions = {}) {
  const human = Array.isArray(answers) ? scriptedHumanInput(answers) : answers;
  const hooks = new ToolHooks({ humanInput: human });
  const pack = approval(options);
  hooks.use(pack);
  return { hooks, human, pack };
}

afterEach(() => {
  received.length = 0;
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("approval: answers", () => {
  it.each(["yes", "YES", "Yes", "y", "Y"])("approves on %j", async (answer) => {
    const { hooks } = setup([answer]);
    const out = await hooks.invoke(sendEmail, { to: "a@example.com" });
    expect(out.status).toBe("ok");
    expect(received).toEqual([{ to: "a@example.com" }]);
  });

  it.each([" y ", "\tyes\n", "  YES  "])("trims %j itself, whatever the provider does", async (answer) => {
    const { hooks } = setup(() => answer);
    expect((await hooks.invoke(sendEmail, {})).status).toBe("ok");
  });

  it.each([
    ["no", 'a human did not approve send_email (answer: "no")'],
    ["", "a human did not approve send_email"],
    ["garbage", 'a human did not approve send_email (answer: "garbage")'],
    ["yes please", 'a human did not approve send_email (answer: "yes please")'],
    ["yess", 'a human did not approve send_email (answer: "yess")'],
    ["y e s", 'a human did not approve send_email (answer: "y e s")'],
    ["ｙｅｓ", 'a human did not approve send_email (answer: "ｙｅｓ")'],
    ["always", 'a human did not approve send_email (answer: "always")'],
    ["no, use the draft folder", 'a human did not approve send_email (answer: "no, use the draft folder")'],
  ])("denies on %j and tells the agent why", async (answer, reason) => {
    const { hooks } = setup(() => answer);
    const out = await hooks.invoke(sendEmail, { to: "a@example.com" });
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe(reason);
    expect(out.result).toBe(`Tool execution blocked by hook. Tool: send_email. Reason: ${reason}`);
    expect(received).toEqual([]);
  });

  it("takes configured approve words, and then only those", async () => {
    const { hooks } = setup(["yes please", "yes", "APPROVE"], { approveWords: ["yes please", "approve"] });
    expect((await hooks.invoke(sendEmail, {})).status).toBe("ok");
    expect((await hooks.invoke(sendEmail, {})).status).toBe("blocked");
    expect((await hooks.invoke(sendEmail, {})).status).toBe("ok");
  });

  it("shows the tool, the agent and the input, with spoofing characters escaped", async () => {
    const { hooks, human } = setup(["no"]);
    const agent = new Agent({ role: "assistant" });
    await hooks.invoke(sendEmail, { to: "boss@example.com\u202e moc.live@", body: "hi\u200b" }, { agent });
    const request = (human as ReturnType<typeof scriptedHumanInput>).requests[0] as HumanInputRequest;
    expect(request.prompt).toBe(
      'Approve send_email for agent assistant?\nInput: {"to":"boss@example.com\\u202e moc.live@","body":"hi\\u200b"}',
    );
    expect(request.defaultMessage).toBe(
      "Type 'yes' or 'y' to approve; anything else denies. 'edit {\"key\": \"value\"}' approves with changed arguments.",
    );
    expect(request.toolName).toBe("send_email");
  });

  it("cuts long inputs with a visible note", async () => {
    const { hooks, human } = setup(["no"], { maxInputChars: 40 });
    await hooks.invoke(sendEmail, { body: "x".repeat(100) });
    const prompt = (human as ReturnType<typeof scriptedHumanInput>).requests[0]?.prompt;
    expect(prompt).toMatch(/… \[truncated: \d+ more characters not shown\]$/);
  });

  it("asks only for the chosen tools", async () => {
    const charge = defineTool({ name: "charge", tags: ["payments"], execute: () => "charged" });
    const { hooks, human } = setup(["yes"], { tools: ["send_email", { tag: "payments" }] });
    expect((await hooks.invoke(readFile, {})).status).toBe("ok");
    expect((await hooks.invoke(charge, {})).status).toBe("ok");
    expect((await hooks.invoke(sendEmail, {})).status).toBe("blocked"); // script ran out: fail closed
    expect((human as ReturnType<typeof scriptedHumanInput>).requests.map((r) => r.toolName)).toEqual([
      "charge",
      "send_email",
    ]);
  });
});

describe("approval: failing, hanging and cancelled providers (fail closed)", () => {
  it("denies when the provider throws", async () => {
    const { hooks } = setup(() => {
      throw new Error(`no terminal\nfor the question:\n${"x".repeat(500)}`);
    });
    const out = await hooks.invoke(sendEmail, {});
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(/^approval for send_email could not be requested: .*no terminal for the question: x+…$/);
    expect(out.reason?.length).toBeLessThan(300);
    expect(received).toEqual([]);
  });

  it("denies when the provider rejects or runs out of answers, even on a fail-open instance", async () => {
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput([]), onHookError: "continue" });
    hooks.use(approval());
    const out = await hooks.invoke(sendEmail, {});
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(/no answer left/);
  });

  it("denies when nobody answers in time, and aborts the provider's wait", async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const { hooks } = setup(
      (request) => {
        signal = request.signal;
        return new Promise<string>(() => {});
      },
      { timeoutMs: 1000 },
    );
    const pending = hooks.invoke(sendEmail, {});
    await vi.advanceTimersByTimeAsync(999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const out = await pending;
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe("no approval for send_email within 1000 ms");
    expect(signal?.aborted).toBe(true);
    expect(received).toEqual([]);
  });

  it("waits five minutes by default", async () => {
    vi.useFakeTimers();
    const { hooks } = setup(() => new Promise<string>(() => {}));
    const pending = hooks.invoke(sendEmail, {});
    await vi.advanceTimersByTimeAsync(299_999);
    let settled = false;
    void pending.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).reason).toBe("no approval for send_email within 300000 ms");
  });

  it("treats a provider's own timeout error as a timeout", async () => {
    const { HumanInputTimeoutError } = await import("@toolware/core");
    const { hooks } = setup(() => Promise.reject(new HumanInputTimeoutError("too slow")), { timeoutMs: 50 });
    expect((await hooks.invoke(sendEmail, {})).reason).toBe("no approval for send_email within 50 ms");
  });

  it("denies when the caller cancels while waiting", async () => {
    const controller = new AbortController();
    const { hooks } = setup(() => new Promise<string>(() => {}), { timeoutMs: Number.POSITIVE_INFINITY });
    const pending = hooks.invoke(sendEmail, {}, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 0));
    controller.abort();
    const out = await pending;
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe("the call to send_email was cancelled while waiting for approval");
  });

  it("blocks when its own prompt builder throws", async () => {
    const { hooks } = setup(["yes"], {
      prompt: () => {
        throw new Error("bad template");
      },
    });
    expect((await hooks.invoke(sendEmail, {})).status).toBe("blocked");
    expect(received).toEqual([]);
  });
});

describe("approval: decisions are observable", () => {
  it("records the decision in ctx.state and onDecision; a failing observer changes nothing", async () => {
    const seen: ApprovalDecision[] = [];
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const { hooks } = setup(["yes", "no"], {
      onDecision: (d) => {
        seen.push(d);
        throw new Error("audit log down");
      },
    });
    let state: ApprovalDecision | undefined;
    hooks.after((ctx) => {
      state = ctx.state.approval;
    });
    expect((await hooks.invoke(sendEmail, {})).status).toBe("ok");
    expect(state).toMatchObject({ approved: true, source: "human", answer: "yes", edited: false });
    expect((await hooks.invoke(sendEmail, {})).status).toBe("blocked");
    expect(seen.map((d) => d.approved)).toEqual([true, false]);
    expect(error).toHaveBeenCalledTimes(2);
  });

  it("uses a custom denial message", async () => {
    const { hooks } = setup(["no"], { message: (d) => `denied (${d.source})` });
    expect((await hooks.invoke(sendEmail, {})).reason).toBe("denied (human)");
  });
});

describe("approval: property tests", () => {
  it("runs the tool only for an explicit yes (any case, any surrounding whitespace)", async () => {
    const yes = fc
      .tuple(
        fc.constantFrom("yes", "y"),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        fc.stringMatching(/^\s*$/),
        fc.stringMatching(/^\s*$/),
      )
      .map(([w, ups, l, r]) => ({
        answer: l + [...w].map((c, i) => (ups[i] ? c.toUpperCase() : c)).join("") + r,
        ok: true,
      }));
    const other = fc.string({ unit: "grapheme", maxLength: 12 }).map((answer) => ({
      answer,
      ok: ["yes", "y"].includes(answer.trim().toLowerCase()),
    }));
    await fc.assert(
      fc.asyncProperty(fc.oneof(yes, other), async ({ answer, ok }) => {
        fc.pre(!answer.trim().toLowerCase().startsWith("edit"));
        const before = received.length;
        const { hooks } = setup(() => answer);
        const out = await hooks.invoke(sendEmail, { to: "x" });
        expect(out.status).toBe(ok ? "ok" : "blocked");
        expect(received.length - before).toBe(ok ? 1 : 0);
      }),
      { numRuns: 300 },
    );
  });
});
