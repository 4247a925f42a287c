import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Inbox, InboxRequest } from "../contract.js";
import { createInbox } from "../inbox.js";
import { createInboxServer, type InboxListening } from "../server/index.js";
import { sqliteInboxStore } from "../sqlite-store.js";
import { signer, tempDir } from "../test-utils.js";

const CHROMIUM = process.env.TOOLWARE_CHROMIUM ?? "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"];
const root = new URL("../../../../", import.meta.url).pathname;
const tsx = join(root, "node_modules/tsx/dist/cli.mjs");
const worker = new URL("./test-worker.ts", import.meta.url).pathname;

type Result = { callId: string; status: string; reason?: string; ran?: unknown };

function agent(file: string, name: string, calls: unknown[]): Promise<Result[]> {
  const child = spawn(
    process.execPath,
    [tsx, "--conditions", "@toolware/source", worker, file, name, JSON.stringify(calls)],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as Result[]) : reject(new Error(err)))),
  );
}

const dir = tempDir();
const file = join(dir.dir, "inbox.db");
let inbox: Inbox;
let token: string;
let live: InboxListening;

beforeAll(async () => {
  inbox = createInbox({ store: sqliteInboxStore({ file }), signer: signer() });
  ({ token } = await inbox.approvers.add({ name: "boss", roles: ["approver"] }));
  live = await createInboxServer({ inbox, port: 0 }).listen();
});
afterAll(async () => {
  await live.close();
  await inbox.close();
  dir.remove();
});

async function pending(count: number): Promise<Map<string, InboxRequest>> {
  for (let i = 0; i < 1500; i++) {
    const list = await inbox.list({ state: "pending" });
    if (list.length >= count) return new Map(list.map((r) => [r.binding.callId, r]));
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the agents' calls never reached the inbox");
}

describe("the page in Chromium, with two agent processes waiting on one inbox", () => {
  it("approves one call, rejects another with a reason, edits a third: each agent gets exactly that", async () => {
    expect(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: apt-get install -y chromium`).toBe(true);
    const first = agent(file, "mailer", [
      { callId: "a-approve", input: { to: "ops@example.com", subject: "weekly" } },
      { callId: "a-reject", input: { to: "all@example.com", subject: "spam" } },
    ]);
    const second = agent(file, "notifier", [{ callId: "b-edit", input: { to: "typo@exmaple.com", subject: "hi" } }]);
    const byCall = await pending(3);
    const id = (callId: string) => byCall.get(callId)?.id as string;

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, timeout: 60_000 });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 1400 } });
      const blocked: string[] = [];
      page.on("console", (m) => {
        if (/Content.Security.Policy/i.test(m.text())) blocked.push(m.text());
      });
      await page.goto(live.url);
      // Keyboard only: the token field, then Enter submits the login form.
      await page.getByLabel("Approver token").focus();
      await page.keyboard.type(token);
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: /Pending requests \(3\)/ }).waitFor();
      await page.locator("#feed[data-ready]").waitFor({ state: "attached" });
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
    } finally {
      await browser.close();
    }

    const [a, b] = await Promise.all([first, second]);
    expect(a).toEqual([
      { callId: "a-approve", status: "ok", ran: { to: "ops@example.com", subject: "weekly" } },
      { callId: "a-reject", status: "blocked", reason: "send_email was not approved: not to everyone" },
    ]);
    expect(b).toEqual([{ callId: "b-edit", status: "ok", ran: { to: "typo@example.com", subject: "hi" } }]);
  }, 120_000);
});
