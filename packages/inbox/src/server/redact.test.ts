import { redact } from "@toolware/packs/redact";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Inbox, InboxRequest } from "../contract.js";
import { pageLogin } from "../page/test-utils.js";
import { codeOf, openInbox, sqliteKind } from "../test-utils.js";
import { createInboxServer, type InboxServerOptions } from "./index.js";

const kind = sqliteKind();
let inbox: Inbox;
let token: string;
let n = 0;

beforeAll(async () => {
  ({ inbox } = await openInbox(kind));
  ({ token } = await inbox.approvers.add({ name: "reader" }));
});
afterAll(async () => {
  await inbox.close();
  await kind.stop();
});

const SECRETS = {
  apiKey: "sk-proj-abcdefghijklmnopqrstuvwxyz0123",
  body: "use Bearer abcdefghijklmnopqrstuvwxyz0123456789 then ghp_abcdefghijklmnopqrstuvwxyz0123456789",
  card: "4111 1111 1111 1111",
  url: "https://admin:hunter2hunter2@db.example.com/",
};

async function submit(input: Record<string, unknown>): Promise<InboxRequest> {
  n += 1;
  return (await inbox.submit({ toolName: "send_email", callId: `redact-${n}`, input, caller: "agent" })).request;
}

/** What the page and the API show of the request's arguments, with these server options. */
async function shown(r: InboxRequest, options: Omit<InboxServerOptions, "inbox"> = {}) {
  const { app } = createInboxServer({ inbox, ...options });
  const { cookie } = await pageLogin(app, token);
  const page = await (await app.request(`/requests/${r.id}`, { headers: { cookie } })).text();
  const res = await app.request(`/api/requests/${r.id}`, { headers: { authorization: `Bearer ${token}` } });
  const api = JSON.stringify(((await res.json()) as { request: { input: unknown } }).request.input);
  return { page, api };
}

describe("the arguments approvers see", () => {
  it("by default hide secrets, tokens, keys, URL passwords and cards, and show the addressee", async () => {
    const r = await submit({ to: "ops@example.com", cc: ["boss@example.org"], ...SECRETS });
    const { page, api } = await shown(r);
    for (const text of [page, api]) {
      expect(text).toContain("ops@example.com");
      expect(text).toContain("boss@example.org");
      for (const secret of ["sk-proj-abc", "abcdefghijklmnopqrstuvwxyz0123456789", "4111 1111", "hunter2"]) {
        expect(text).not.toContain(secret);
      }
      expect(text).toContain("[REDACTED]");
    }
  });

  it("follow the redact pack the stack applies to results, given as the pack or its options", async () => {
    const r = await submit({ to: "ops@example.com", x_internal: "row-42", note: "ticket ACME-123456" });
    const rules = { keys: ["x_internal"], patterns: [/ACME-\d{6}/] };
    for (const option of [redact(rules), rules]) {
      const { page, api } = await shown(r, { redact: option });
      for (const text of [page, api]) {
        // The pack's defaults hide e-mail addresses: the operator chose the same rules as for results.
        expect(text).not.toContain("ops@example.com");
        expect(text).not.toContain("row-42");
        expect(text).not.toContain("ACME-123456");
      }
    }
    const open = await shown(r, { redact: { emails: false, secrets: false } });
    expect(open.api).toContain("ops@example.com");
    expect(open.api).toContain("row-42");
  });

  it("refuses a misspelt or malformed rule instead of showing arguments unredacted", () => {
    const refused = (options: Record<string, unknown>) => {
      try {
        createInboxServer({ inbox, ...options } as InboxServerOptions);
        return "accepted";
      } catch (error) {
        return `${codeOf(error)} ${(error as Error).message}`;
      }
    };
    expect(refused({ redact: { email: false } })).toMatch(/TOOLWARE_UNKNOWN_OPTION.*did you mean `emails`/);
    expect(refused({ redact: { secrets: "no" } })).toMatch(/TOOLWARE_INVALID_OPTION/);
    expect(refused({ reduct: {} })).toMatch(/TOOLWARE_UNKNOWN_OPTION.*did you mean "redact"/);
    for (const bad of [null, "none", 1, false]) {
      expect(refused({ redact: bad })).toMatch(/^TOOLWARE_INVALID_OPTION toolware\/inbox: redact must be/);
    }
  });

  it("never shows a generated token under a secret key, whatever the addressee", async () => {
    const { app } = createInboxServer({ inbox });
    const auth = { headers: { authorization: `Bearer ${token}` } };
    await fc.assert(
      fc.asyncProperty(fc.emailAddress(), fc.stringMatching(/^[A-Za-z0-9]{24,40}$/), async (to, secret) => {
        const r = await submit({ to, password: secret, auth: `Bearer ${secret}` });
        const body = (await (await app.request(`/api/requests/${r.id}`, auth)).json()) as {
          request: { input: Record<string, unknown> };
        };
        expect(body.request.input.to).toBe(to);
        expect(JSON.stringify(body.request.input)).not.toContain(secret);
      }),
      { numRuns: 30 },
    );
  });
});
