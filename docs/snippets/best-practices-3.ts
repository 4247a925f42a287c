// snippet: best-practices-3.ts
import { defineTool, scriptedHumanInput, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { describe, expect, it } from "vitest";

// The app builds its hooks in a function: each test gets its own instance, so nothing leaks between tests
// (no clearAllToolCallHooks() needed), and a test chooses who answers the approval questions.
function buildHooks(humanInput = scriptedHumanInput([])) {
  const hooks = new ToolHooks({ humanInput });
  hooks.use(approval({ tools: ["send_email"] }));
  hooks.before(function noDrops(ctx) {
    if (ctx.toolName.startsWith("drop_")) ctx.block("schema changes go through a migration");
  });
  return hooks;
}

const sendEmail = defineTool({ name: "send_email", execute: ({ to }: { to: string }) => `sent to ${to}` });
const dropTable = defineTool({ name: "drop_table", execute: () => "dropped" });

describe("the tool policy", () => {
  it("sends e-mail only after an explicit yes", async () => {
    const human = scriptedHumanInput(["yes", "sure"]);
    const hooks = buildHooks(human);
    expect((await hooks.invoke(sendEmail, { to: "a@example.com" })).status).toBe("ok");
    expect((await hooks.invoke(sendEmail, { to: "b@example.com" })).status).toBe("blocked"); // "sure" is not yes
    expect(human.requests.map((r) => r.toolName)).toEqual(["send_email", "send_email"]);
  });

  it("fails closed when nobody can answer", async () => {
    const outcome = await buildHooks().invoke(sendEmail, { to: "a@example.com" }); // the script has no answer
    expect(outcome.status).toBe("blocked");
  });

  it("says which hook blocked, and why", async () => {
    const outcome = await buildHooks().invoke(dropTable, {});
    expect(outcome.trace).toContainEqual(
      expect.objectContaining({ hook: "noDrops", action: "blocked", reason: "schema changes go through a migration" }),
    );
  });

  it("tests one hook on its own, through a real call", async () => {
    const hooks = new ToolHooks();
    hooks.after((ctx) => ctx.toolResult?.replaceAll(/\d{4}-\d{4}/g, "[ID]"));
    const lookup = defineTool({ name: "lookup", execute: () => "customer 1234-5678" });
    expect((await hooks.invoke(lookup, {})).result).toBe("customer [ID]");
  });
});
