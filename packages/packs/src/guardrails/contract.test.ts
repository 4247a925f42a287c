// docs/packs/guardrails.md: `message` is "a non-empty string, or a function that returns one"; a message function
// that "returns something other than a string (TOOLWARE_INVALID_RETURN)" blocks the call. A blank string is no
// reason either: it blocked with an empty reason the agent could not act on.
import { Agent, defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { guardrails } from "@toolware/packs/guardrails";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const dropTable = defineTool({ name: "drop_table", execute: () => "dropped" });

describe("guardrails: what a message function may return", () => {
  it("a blank or non-string reason blocks the call with TOOLWARE_INVALID_RETURN, even on a continue instance", async () => {
    const noReason = fc.oneof(
      fc.constantFrom<unknown>("", "   ", "\n\t", undefined, null, 42, {}, Promise.resolve("later")),
      fc.stringMatching(/^\s+$/),
    );
    await fc.assert(
      fc.asyncProperty(noReason, async (returned) => {
        const hooks = new ToolHooks({ onHookError: "continue" });
        hooks.use(guardrails({ deny: ["drop_table"], message: () => returned as string }));
        const out = await hooks.invoke(dropTable, {});
        expect(out.status).toBe("blocked");
        expect(out.raw).toBeUndefined();
        expect(toolwareCode(out.error)).toBe("TOOLWARE_INVALID_RETURN");
        expect(out.reason).toMatch(/`message` returned/);
      }),
      { numRuns: 40 },
    );
  });

  it("a reason with text is used as given", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ deny: ["drop_table"], message: (b) => `${b.toolName} is not for you` }));
    expect((await hooks.invoke(dropTable, {})).reason).toBe("drop_table is not for you");
  });
});

describe("guardrails: role and rule lists are read once", () => {
  // Each getter answers the check with a list and the compiler (on later reads) with nothing.
  const once = (list: string[]) => {
    let reads = 0;
    return () => (reads++ === 0 ? list : undefined);
  };
  it("a byRole entry whose deny list vanishes after the check still denies", async () => {
    const policy = {};
    Object.defineProperty(policy, "deny", { enumerable: true, get: once(["drop_table"]) });
    const hooks = new ToolHooks();
    hooks.use(guardrails({ byRole: { junior_agent: policy } }));
    const out = await hooks.invoke(dropTable, {}, { agent: new Agent({ role: "junior_agent" }) });
    expect(out.status).toBe("blocked");
  });

  it("a rule whose deny list vanishes after the check still denies", async () => {
    const rule = { when: () => true };
    Object.defineProperty(rule, "deny", { enumerable: true, get: once(["drop_table"]) });
    const hooks = new ToolHooks();
    hooks.use(guardrails({ rules: [rule] }));
    expect((await hooks.invoke(dropTable, {})).status).toBe("blocked");
  });
});
