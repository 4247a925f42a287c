import { defineTool, scriptedHumanInput, ToolHooks, toolwareCode } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { type ApprovalStore, approval, memoryApprovalStore } from "./index.js";

const sendEmail = defineTool({ name: "send_email", execute: () => "sent" });

describe("approval: store", () => {
  it("gates sharing one store share what the human said", async () => {
    const store = memoryApprovalStore();
    const first = new ToolHooks({ humanInput: scriptedHumanInput(["always"]) });
    first.use(approval({ tools: ["send_email"], remember: "tool", store }));
    const second = new ToolHooks({ humanInput: scriptedHumanInput([]) });
    const other = approval({ tools: ["send_email"], remember: "tool", store });
    second.use(other);
    expect((await first.invoke(sendEmail, {})).status).toBe("ok");
    const out = await second.invoke(sendEmail, {});
    expect(out.status).toBe("ok");
    expect(out).toMatchObject({ status: "ok" });
    expect(other.rememberedCount()).toBe(1);
    other.reset();
    expect(store.count()).toBe(0);
  });

  it("a store failing to read blocks the call; one failing to write keeps the answer and reports", async () => {
    const broken: ApprovalStore = {
      get: () => Promise.reject(new Error("store down")),
      set: () => undefined,
      clear: () => undefined,
      count: () => 0,
    };
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["yes"]) });
    hooks.use(approval({ remember: "tool", store: broken }));
    const out = await hooks.invoke(sendEmail, {});
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(/store down/);

    const reported: string[] = [];
    const writes = new ToolHooks({
      humanInput: scriptedHumanInput(["always"]),
      onListenerError: (where) => reported.push(where),
    });
    const lossy: ApprovalStore = { ...memoryApprovalStore(), set: () => Promise.reject(new Error("lost")) };
    writes.use(approval({ remember: "tool", store: lossy }));
    expect((await writes.invoke(sendEmail, {})).status).toBe("ok");
    expect(reported).toEqual(["approval.store"]);
  });

  it("refuses a store without its methods, or without remember", () => {
    for (const [options, message] of [
      [{ remember: "tool", store: {} }, /`store` must implement get, set, clear, count/],
      [{ remember: "tool", store: null }, /`store` must implement/],
      [{ store: memoryApprovalStore() }, /`store` only applies with `remember`/],
    ] as const) {
      try {
        approval(options as never);
        expect.unreachable();
      } catch (e) {
        expect(toolwareCode(e)).toBe("TOOLWARE_INVALID_OPTION");
        expect(String(e)).toMatch(message);
      }
    }
  });
});
