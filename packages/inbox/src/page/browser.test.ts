import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  agentProcess,
  CHROMIUM,
  FLAGS,
  type Kind,
  killWorkers,
  pendingByCall,
  root,
  serverProcess,
  sharedInbox,
  signIn,
} from "./test-utils.js";

const cleanups: (() => Promise<void> | void)[] = [];
let browser: Browser;
beforeAll(async () => {
  expect(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: apt-get install -y chromium`).toBe(true);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 60_000 });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await killWorkers();
  for (const c of cleanups.reverse()) await c();
});
const shared = (kind: Kind) => sharedInbox(kind, cleanups);
const agent = agentProcess;

describe("the page in Chromium, with two agent processes waiting on one inbox", () => {
  it("approves one call, rejects another with a reason, edits a third: each agent gets exactly that", async () => {
    const { where, inbox } = await shared("sqlite");
    const { token } = await inbox.approvers.add({ name: "boss", roles: ["approver"] });
    const { url } = await serverProcess("sqlite", where);
    const first = agent("sqlite", where, "mailer", [
      { callId: "a-approve", input: { to: "ops@example.com", subject: "weekly" } },
      { callId: "a-reject", input: { to: "all@example.com", subject: "spam" } },
    ]);
    const second = agent("sqlite", where, "notifier", [
      { callId: "b-edit", input: { to: "typo@exmaple.com", subject: "hi" } },
    ]);
    const byCall = await pendingByCall(inbox, 3);
    const id = (callId: string) => byCall.get(callId)?.id as string;

    const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
    const blocked: string[] = [];
    page.on("console", (m) => {
      if (/Content.Security.Policy/i.test(m.text())) blocked.push(m.text());
    });
    await signIn(page, url, token);
    await page.getByRole("heading", { name: /Pending requests \(3\)/ }).waitFor();
    await page.locator("#feed[data-ready]").waitFor({ state: "attached" });
    // The addressee is what the approver judges: shown, not redacted.
    const shown = await page.locator(`article[data-id="${id("a-approve")}"] pre`).textContent();
    expect(shown).toContain('"to": "ops@example.com"');
    // The docs' picture is refreshed on request only, so a test run leaves the work tree as it was.
    const shot = await page.screenshot({ fullPage: false });
    expect(shot.byteLength).toBeGreaterThan(10_000);
    if (process.env.TOOLWARE_UPDATE_SCREENSHOT === "1") writeFileSync(join(root, "docs/inbox.png"), shot);

    await page
      .locator(`article[data-id="${id("a-approve")}"]`)
      .getByRole("button", { name: "Approve", exact: true })
      .click();
    await page.getByRole("heading", { name: /Pending requests \(2\)/ }).waitFor();

    const reject = page.locator(`article[data-id="${id("a-reject")}"]`);
    await reject.getByLabel("Reason for rejecting").fill("not to everyone");
    await reject.getByRole("button", { name: "Reject" }).click();
    await page.getByRole("heading", { name: /Pending requests \(1\)/ }).waitFor();

    const edit = page.locator(`article[data-id="${id("b-edit")}"]`);
    await edit.getByText("Edit then approve").click();
    await edit
      .getByRole("textbox", { name: /Arguments/ })
      .fill(JSON.stringify({ to: "typo@example.com", subject: "hi" }));
    await edit.getByRole("button", { name: "Approve edited arguments" }).click();
    await page.getByRole("heading", { name: /Pending requests \(0\)/ }).waitFor();
    expect(blocked).toEqual([]);
    await page.close();

    const [a, b] = await Promise.all([first, second]);
    expect(a).toEqual([
      { callId: "a-approve", status: "ok", ran: { to: "ops@example.com", subject: "weekly" }, runs: 1 },
      { callId: "a-reject", status: "blocked", reason: "send_email was not approved: not to everyone", runs: 0 },
    ]);
    expect(b).toEqual([{ callId: "b-edit", status: "ok", ran: { to: "typo@example.com", subject: "hi" }, runs: 1 }]);
  }, 120_000);
});

describe.each(["sqlite", "redis"] as const)("the inbox server restarted while a call waits (%s)", (kind) => {
  it("comes back with the request pending; after signing in again, the approval reaches the agent once", async () => {
    const { where, inbox } = await shared(kind);
    const { token } = await inbox.approvers.add({ name: "boss", roles: ["approver"] });
    const before = await serverProcess(kind, where);
    const input = { to: "ops@example.com", subject: "after the restart" };
    const waiting = agent(kind, where, "mailer", [{ callId: "r-1", input }]);
    const request = (await pendingByCall(inbox, 1)).get("r-1");

    const page = await browser.newPage();
    await signIn(page, before.url, token);
    await page.getByRole("heading", { name: /Pending requests \(1\)/ }).waitFor();

    // The server dies mid-session, without a chance to flush or say goodbye, and comes back on its port.
    await before.worker.kill();
    const port = Number(new URL(before.url).port);
    const after = await serverProcess(kind, where, port);
    expect(after.url).toBe(before.url);

    // Sessions live in the server's memory: the old cookie is gone, the approver signs in again.
    await page.goto(after.url);
    await page.getByLabel("Approver token").waitFor();
    await signIn(page, after.url, token);
    const card = page.locator(`article[data-id="${request?.id}"]`);
    await card.getByRole("button", { name: "Approve", exact: true }).click();
    await page.getByRole("heading", { name: /Pending requests \(0\)/ }).waitFor();
    await page.close();

    expect(await waiting).toEqual([{ callId: "r-1", status: "ok", ran: input, runs: 1 }]);
    const settled = await inbox.get(request?.id as string);
    expect(settled).toMatchObject({ state: "approved", decision: { outcome: "approved", approvers: ["boss"] } });
    expect(inbox.verify(settled as NonNullable<typeof settled>)).toBe(true);
  }, 120_000);
});
