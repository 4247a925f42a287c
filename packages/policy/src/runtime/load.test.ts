import { Agent, ToolHooks, scriptedHumanInput } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "./load.js";
import { loadedDoc, tool } from "./test-fixtures.js";

const junior = new Agent({ role: "junior_agent", goal: "g", backstory: "b" });

describe("loadPolicy", () => {
  it("denies with the rule's reason and names the rule in the trace", async () => {
    const policy = await loadPolicy(
      loadedDoc([
        { name: "juniors-cannot-delete", match: { tools: ["delete_file"], agents: ["junior_agent"] }, decide: "deny", reason: "junior agents cannot delete files" },
      ]),
    );
    const hooks = new ToolHooks();
    hooks.use(policy);
    const out = await hooks.invoke(tool("delete_file"), { path: "a" }, { agent: junior });
    expect(out.status).toBe("blocked");
    expect(out.reason).toBe("junior agents cannot delete files");
    expect(out.trace.find((e) => e.action === "blocked")?.hook).toBe("policy:juniors-cannot-delete");
    const ok = await hooks.invoke(tool("delete_file"), { path: "a" });
    expect(ok.status).toBe("ok");
    expect(policy.counters().rules["juniors-cannot-delete"]).toMatchObject({ matched: 1, denied: 1 });
  });
});
