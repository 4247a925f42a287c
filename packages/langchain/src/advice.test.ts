import { defineTool, ToolHooks } from "@toolware/core";
import { interruptHumanInput } from "@toolware/langchain";
import { approval } from "@toolware/packs/approval";
import { describe, expect, it } from "vitest";

describe("interruptHumanInput's refusals", () => {
  it("tell the model plainly and keep the developer's advice in the error's cause", async () => {
    const decisions: { detail: string | undefined }[] = [];
    const hooks = new ToolHooks({ humanInput: interruptHumanInput() });
    hooks.use(approval({ tools: ["send_email"], onDecision: (d) => decisions.push({ detail: d.detail }) }));
    let ran = false;
    const sendEmail = defineTool({
      name: "send_email",
      execute: () => {
        ran = true;
        return "sent";
      },
    });
    // A call that did not come through the LangChain adapter: nobody can be asked, so it is denied.
    const outcome = await hooks.invoke(sendEmail, { to: "ann@example.com" });
    expect(ran).toBe(false);
    expect(outcome.status).toBe("blocked");
    expect(outcome.reason).toBe(
      "approval for send_email could not be requested: toolware: no person can be asked about this call here",
    );
    expect(outcome.result).not.toMatch(/fallback|@toolware\/langchain|Command\(/);
    expect(decisions).toEqual([{ detail: "toolware: no person can be asked about this call here" }]);

    const provider = interruptHumanInput();
    const error = await Promise.resolve()
      .then(() =>
        provider({
          prompt: "Approve?",
          defaultMessage: undefined,
          toolName: "send_email",
          callId: "c1",
          signal: new AbortController().signal,
        }),
      )
      .catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe("TOOLWARE_HUMAN_INPUT_UNAVAILABLE");
    expect(String((error as Error).cause)).toMatch(/interruptHumanInput\(\{ fallback \}\)/);
  });
});
