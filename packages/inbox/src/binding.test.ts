import { digestArguments } from "@toolware/core";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Approver, Inbox } from "./contract.js";
import { openInbox, refusal, type StoreKind, sqliteKind } from "./test-utils.js";

describe("a decision answers only the arguments it was made for (property)", () => {
  let kind: StoreKind;
  let inbox: Inbox;
  let boss: Approver;
  beforeAll(async () => {
    kind = sqliteKind();
    ({ inbox, boss } = await openInbox(kind));
  });
  afterAll(async () => {
    await inbox.close();
    await kind.stop();
  });

  it("for any two argument objects with different digests, neither a decision nor a resume for the other goes through", async () => {
    let n = 0;
    const args = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(args, args, async (a, b) => {
        fc.pre(digestArguments(a) !== digestArguments(b));
        const callId = `p${++n}`;
        const { request, resumeToken } = await inbox.submit({ toolName: "t", callId, input: a, caller: "agent" });
        const other = digestArguments(b);
        expect(await refusal(inbox.decide(request.id, { approver: boss, approve: true, digest: other }))).toBe(
          "TOOLWARE_INBOX_ARGUMENTS_CHANGED",
        );
        await inbox.decide(request.id, { approver: boss, approve: true, digest: request.binding.digest });
        expect(await refusal(inbox.resume(resumeToken, { toolName: "t", callId, input: b }))).toBe(
          "TOOLWARE_INBOX_ARGUMENTS_CHANGED",
        );
        expect((await inbox.resume(resumeToken, { toolName: "t", callId, input: a })).kind).toBe("approved");
      }),
      { numRuns: 40 },
    );
  });
});
