import { mkdtempSync, writeFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import type { PolicyEvent } from "./events.js";
import { loadPolicy } from "./load.js";
import { loadedDoc, tool } from "./test-fixtures.js";
import { watchPolicy } from "./watch.js";

const rules = (order: readonly string[]) =>
  `version: 1\ndefault: allow\nrules:\n${order
    .map((t) => `  - name: on-${t}\n    match: { tools: [${t}] }\n    decide: ${t === "x" ? "allow" : "deny"}\n`)
    .join("")}`;

describe("policy counters", () => {
  it("count each rule by its name when a reload reorders the rules", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolware-policy-"));
    const file = join(dir, "toolware.policy.yaml");
    writeFileSync(file, rules(["x", "y"]));
    const events: PolicyEvent[] = [];
    const policy = await watchPolicy(file, { onEvent: (e) => events.push(e), debounceMs: 10 });
    try {
      const hooks = new ToolHooks();
      hooks.use(policy);
      expect((await hooks.invoke(tool("x"), {})).status).toBe("ok");
      expect((await hooks.invoke(tool("y"), {})).status).toBe("blocked");
      await writeFile(`${file}.tmp`, rules(["y", "x"]));
      await rename(`${file}.tmp`, file);
      for (let i = 0; i < 500 && !events.some((e) => e.type === "reload"); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(policy.version()).toBe(2);
      expect((await hooks.invoke(tool("x"), {})).status).toBe("ok");
      expect((await hooks.invoke(tool("y"), {})).status).toBe("blocked");
      expect((await hooks.invoke(tool("x"), {})).status).toBe("ok");
      const c = policy.counters();
      expect(c.calls).toBe(5);
      expect(c.rules["on-x"]).toMatchObject({ matched: 3, denied: 0 });
      expect(c.rules["on-y"]).toMatchObject({ matched: 2, denied: 2 });
    } finally {
      policy.close();
    }
  });

  it("count calls of tools taking turns, each by the rules its own tool can match", async () => {
    const policy = await loadPolicy(
      loadedDoc([
        { name: "a", match: { tools: ["a"] }, decide: "deny", reason: "no a" },
        { name: "b", match: { tools: ["b"] } },
        { name: "any", decide: "allow" },
      ]),
    );
    const hooks = new ToolHooks();
    hooks.use(policy);
    const [a, b] = [tool("a"), tool("b")];
    for (let i = 0; i < 3; i++) {
      expect((await hooks.invoke(a, {})).reason).toBe("no a");
      expect((await hooks.invoke(b, {})).status).toBe("ok");
    }
    const c = policy.counters();
    expect(c.rules.a).toMatchObject({ matched: 3, denied: 3 });
    expect(c.rules.b).toMatchObject({ matched: 3, denied: 0 });
    expect(c.rules.any).toMatchObject({ matched: 6 });
  });
});
