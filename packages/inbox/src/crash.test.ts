import { afterAll, describe, expect, it } from "vitest";
import { agentProcess, type Kind, killWorkers, pendingByCall, serverProcess, sharedInbox } from "./page/test-utils.js";

// The issue's words: "Killing the inbox process (SIGKILL) with 100 pending requests: after restart all
// 100 are there and can be decided, and every waiting call gets exactly its decision." The inbox server
// and the agent are separate processes; the server dies while approvers are deciding through its API.

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  await killWorkers();
  for (const c of cleanups.reverse()) await c();
});

const COUNT = 100;
const verdict = (i: number) => (i % 2 === 0 ? "approve" : "reject");

describe.each(["sqlite", "redis"] as const)(
  "the inbox server SIGKILLed with 100 pending requests (%s)",
  (kind: Kind) => {
    it("after a restart all 100 are there and decidable, and every waiting call gets exactly its decision", async () => {
      const { where, inbox } = await sharedInbox(kind, cleanups);
      const { token } = await inbox.approvers.add({ name: "boss", roles: ["approver"] });
      const calls = Array.from({ length: COUNT }, (_, i) => ({
        callId: `call_${i}`,
        input: { to: `u${i}@example.com`, i },
      }));
      const agent = agentProcess(kind, where, "mailer", calls);
      const byCall = await pendingByCall(inbox, COUNT);
      expect(byCall.size).toBe(COUNT);

      const decide = (url: string, i: number) => {
        const r = byCall.get(`call_${i}`);
        return fetch(`${url}/api/requests/${r?.id}/${verdict(i)}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ digest: r?.binding.digest, reason: `decided ${i}` }),
        });
      };
      // The approvers start on the first 20; the server is SIGKILLed as soon as one is answered.
      const before = await serverProcess(kind, where);
      const inFlight = Array.from({ length: 20 }, (_, i) => decide(before.url, i).catch(() => undefined));
      await Promise.race(inFlight);
      await before.worker.kill();
      await Promise.all(inFlight);

      const after = await serverProcess(kind, where);
      const res = await fetch(`${after.url}/api/requests?state=pending&limit=1000`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const left = ((await res.json()) as { requests: { callId: string }[] }).requests.map((r) => r.callId);
      const index = (callId: string) => Number(callId.slice("call_".length));
      // Nothing lost: every request the dead server did not decide is still pending, the rest settled once.
      expect(left.length).toBeLessThan(COUNT);
      for (let i = 20; i < COUNT; i++) expect(left).toContain(`call_${i}`);
      const answers = await Promise.all(left.map((c) => decide(after.url, index(c))));
      expect(answers.map((a) => a.status)).toEqual(left.map(() => 200));
      // A decision the dead server had made stands: deciding it again is a conflict.
      const settledEarly = Array.from({ length: 20 }, (_, i) => i).filter((i) => !left.includes(`call_${i}`));
      expect(settledEarly.length).toBeGreaterThan(0);
      for (const i of settledEarly) expect((await decide(after.url, i)).status).toBe(409);

      const results = await agent;
      expect(results).toHaveLength(COUNT);
      for (const [i, r] of results.entries()) {
        if (verdict(i) === "approve") {
          expect(r).toEqual({ callId: `call_${i}`, status: "ok", ran: calls[i]?.input, runs: 1 });
        } else {
          expect(r).toEqual({
            callId: `call_${i}`,
            status: "blocked",
            reason: `send_email was not approved: decided ${i}`,
            runs: 0,
          });
        }
      }
      for (const r of await inbox.list({ limit: 1000 })) {
        expect(r.state).toBe(verdict(index(r.binding.callId)) === "approve" ? "approved" : "denied");
        expect(r.decision?.approvers).toEqual(["boss"]);
        expect(inbox.verify(r)).toBe(true);
      }
    }, 120_000);
  },
);
