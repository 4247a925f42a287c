import { defineTool, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileNames } from "./match.js";

// The decision hooks of a rule let the core filter them by the rule's tool names: a name the rule matches that
// the core's filter left out would let a call through that the rule denies. Both must agree on every name.
describe("compileNames agrees with the core's name filter", () => {
  const piece = fc.oneof(
    fc.constantFrom("*", "?", "_", "-", " ", ".", "a", "b", "A", "file", "Delete", "x1"),
    fc.string({ maxLength: 3 }),
  );
  const pattern = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join(""));
  const name = fc
    .array(fc.constantFrom("a", "b", "A", "_", "-", " ", "file", "Delete", "x1", "."), { minLength: 1, maxLength: 6 })
    .map((p) => p.join(""));

  it("for exact names and globs", async () => {
    await fc.assert(
      fc.asyncProperty(pattern, name, async (p, n) => {
        let core: boolean;
        const hooks = new ToolHooks();
        try {
          hooks.before(() => false, { tools: [p] });
        } catch {
          return; // the core refuses this entry; the policy then keeps no name filter
        }
        let tool: ReturnType<typeof defineTool>;
        try {
          tool = defineTool({ name: n, execute: () => "ran" });
        } catch {
          return; // not a tool name the core accepts
        }
        try {
          core = (await hooks.invoke(tool, {})).status === "blocked";
        } catch {
          return;
        }
        expect(compileNames([p])(n)).toBe(core);
      }),
      { numRuns: 400 },
    );
  });
});
