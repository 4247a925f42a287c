import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Inbox } from "../contract.js";
import { createInboxServer } from "../server/index.js";
import { openInbox, sqliteKind } from "../test-utils.js";
import { pageLogin } from "./test-utils.js";

const kind = sqliteKind();
let inbox: Inbox;
let app: ReturnType<typeof createInboxServer>["app"];
let cookie: string;

beforeAll(async () => {
  let tokens: Record<string, string>;
  ({ inbox, tokens } = await openInbox(kind));
  for (let i = 0; i < 60; i++) {
    await inbox.submit({
      toolName: "send_email",
      callId: `p-${i}`,
      input: { to: `u${i}@example.com` },
      caller: "agent",
    });
  }
  app = createInboxServer({ inbox }).app;
  ({ cookie } = await pageLogin(app, tokens.boss as string));
});
afterAll(async () => {
  await inbox.close();
  await kind.stop();
});

const page = async (query = "") => (await app.request(`/${query}`, { headers: { cookie } })).text();
const cards = (text: string) => text.match(/<article class="request"/g)?.length ?? 0;

describe("the pending list, paged", () => {
  it("shows 50 requests a page, with the count and labelled links between the pages", async () => {
    const first = await page();
    expect(first).toContain("Pending requests (60)");
    expect(cards(first)).toBe(50);
    expect(first).toMatch(/<nav class="pager" aria-label="Pages of pending requests">/);
    expect(first).toContain("Page 1 of 2: requests 1 to 50, newest first.");
    expect(first).toContain('<a href="/?page=2" rel="next">Next page</a>');
    expect(first).not.toContain("Previous page");
    const second = await page("?page=2");
    expect(cards(second)).toBe(10);
    expect(second).toContain("Page 2 of 2: requests 51 to 60");
    expect(second).toContain('<a href="/?page=1" rel="prev">Previous page</a>');
    // Every request is on exactly one page.
    const ids = (t: string) => [...t.matchAll(/data-id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(60);
  });

  it("reads a hostile or out-of-range page number as the nearest page", async () => {
    expect(await page("?page=999")).toContain("Page 2 of 2");
    for (const q of ["?page=0", "?page=-1", "?page=abc", "?page=1e3", "?page=%3Cscript%3E", "?page=99999999"]) {
      const text = await page(q);
      expect(text).toContain("Page 1 of 2");
      expect(text).not.toContain("<script>");
    }
  });
});
