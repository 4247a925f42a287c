import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Inbox } from "../contract.js";
import { createInboxServer } from "../server/index.js";
import { openInbox, sqliteKind } from "../test-utils.js";
import { cookieOf, csrfIn, FORM, pageLogin } from "./test-utils.js";

const kind = sqliteKind();
let inbox: Inbox;
let tokens: Record<string, string>;
let server: ReturnType<typeof createInboxServer>;
let n = 0;

beforeAll(async () => {
  ({ inbox, tokens } = await openInbox(kind));
  server = createInboxServer({ inbox, bodyLimit: 4096, port: 0 });
});
afterAll(async () => {
  await inbox.close();
  await kind.stop();
});

async function login(who = "boss"): Promise<{ cookie: string; csrf: string }> {
  const { set, cookie, csrf } = await pageLogin(server.app, tokens[who] as string);
  expect(set).toMatch(/HttpOnly/);
  expect(set).toMatch(/SameSite=Strict/);
  return { cookie, csrf };
}

async function submit(extra: Record<string, unknown> = {}) {
  n += 1;
  const { request } = await inbox.submit({
    toolName: "send_email",
    callId: `page-${n}`,
    input: { to: "ops@example.com", apiKey: "sk-secret-value" },
    caller: "agent-1",
    labels: { agent: "mailer", task: "weekly report", crew: "ops-crew" },
    ...extra,
  });
  return request;
}

function send(path: string, s: { cookie: string }, fields: Record<string, string>) {
  return server.app.request(path, {
    method: "POST",
    headers: { ...FORM, cookie: s.cookie },
    body: new URLSearchParams(fields).toString(),
  });
}

describe("the page", () => {
  it("shows one request's page, pending or settled, and ends the session of a removed approver", async () => {
    await inbox.approvers.add({ name: "temp", roles: ["approver"], token: "temp-token-of-enough-length-0001" });
    tokens.temp = "temp-token-of-enough-length-0001";
    const s = await login("temp");
    const r = await submit();
    const open = await (await server.app.request(`/requests/${r.id}`, { headers: { cookie: s.cookie } })).text();
    expect(open).toContain(`data-id="${r.id}"`);
    await send(`/requests/${r.id}/reject`, s, { digest: r.binding.digest, csrf: s.csrf, reason: "later" });
    const done = await (await server.app.request(`/requests/${r.id}`, { headers: { cookie: s.cookie } })).text();
    expect(done).toMatch(/send_email: denied/);
    const missing = await server.app.request("/requests/req_AAAAAAAAAAAAAAAAAAAAAA", { headers: { cookie: s.cookie } });
    expect(missing.status).toBe(404);
    expect((await send("/grants/grt_AAAAAAAAAAAAAAAAAAAAAA/revoke", s, { csrf: s.csrf })).status).toBe(404);
    expect((await send("/grants/req_AAAAAAAAAAAAAAAAAAAAAA/revoke", s, { csrf: s.csrf })).status).toBe(400);
    expect((await send(`/requests/${r.id}/delete`, s, { csrf: s.csrf })).status).toBe(404);
    const notForm = await server.app.request("/logout", { method: "POST", headers: { cookie: s.cookie } });
    expect(notForm.status).toBe(415);
    await inbox.approvers.remove("temp");
    expect((await server.app.request("/grants", { headers: { cookie: s.cookie } })).status).toBe(401);
  });

  it("shows a login form without a session, and refuses a wrong token and a login without its CSRF token", async () => {
    const first = await server.app.request("/");
    expect(first.status).toBe(200);
    const text = await first.text();
    expect(text).toMatch(/<label for="token">/);
    expect(text).not.toMatch(/<script>/);
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).not.toMatch(/unsafe-inline/);
    const pre = cookieOf(first, "toolware_inbox_login").split(";")[0] as string;
    const wrong = await server.app.request("/login", {
      method: "POST",
      headers: { ...FORM, cookie: pre },
      body: new URLSearchParams({ csrf: csrfIn(text), token: "not-a-token" }).toString(),
    });
    expect(wrong.status).toBe(401);
    expect(cookieOf(wrong, "toolware_inbox_session")).toBe("");
    const noCsrf = await server.app.request("/login", {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({ token: tokens.boss as string }).toString(),
    });
    expect(noCsrf.status).toBe(403);
  });

  it("refuses pages and forms without a session", async () => {
    const r = await submit();
    expect((await server.app.request("/grants")).status).toBe(401);
    const res = await send(
      `/requests/${r.id}/approve`,
      { cookie: "toolware_inbox_session=x" },
      { digest: r.binding.digest },
    );
    expect(res.status).toBe(401);
    expect((await inbox.get(r.id))?.state).toBe("pending");
  });

  it("lists pending requests with labels, redacted arguments and labelled controls", async () => {
    const r = await submit();
    const s = await login();
    const text = await (await server.app.request("/", { headers: { cookie: s.cookie } })).text();
    expect(text).toContain(`data-id="${r.id}"`);
    expect(text).toContain("weekly report");
    expect(text).toContain("ops-crew");
    expect(text).not.toContain("sk-secret-value");
    expect(text).toMatch(/aria-live="polite"/);
    expect(text).toContain(`<label for="reason-${r.id}">`);
  });

  it("refuses a form without its CSRF token; approves with it; a second decision is 409", async () => {
    const r = await submit();
    const s = await login();
    expect((await send(`/requests/${r.id}/approve`, s, { digest: r.binding.digest })).status).toBe(403);
    expect(
      (await send(`/requests/${r.id}/approve`, s, { digest: r.binding.digest, csrf: "x".repeat(43) })).status,
    ).toBe(403);
    expect((await inbox.get(r.id))?.state).toBe("pending");
    const ok = await send(`/requests/${r.id}/approve`, s, { digest: r.binding.digest, csrf: s.csrf });
    expect(ok.status).toBe(303);
    expect((await inbox.get(r.id))?.decision?.approvers).toEqual(["boss"]);
    const again = await send(`/requests/${r.id}/reject`, s, { digest: r.binding.digest, csrf: s.csrf, reason: "no" });
    expect(again.status).toBe(409);
  });

  it("rejects with a reason, edits then approves, and refuses self-approval and a wrong role", async () => {
    const s = await login("ops");
    const a = await submit();
    expect((await send(`/requests/${a.id}/reject`, s, { digest: a.binding.digest, csrf: s.csrf })).status).toBe(400);
    await send(`/requests/${a.id}/reject`, s, { digest: a.binding.digest, csrf: s.csrf, reason: "wrong list" });
    expect((await inbox.get(a.id))?.decision?.reason).toBe("wrong list");
    const b = await submit();
    const bad = await send(`/requests/${b.id}/edit`, s, { digest: b.binding.digest, csrf: s.csrf, input: "{oops" });
    expect(bad.status).toBe(400);
    const edit = await send(`/requests/${b.id}/edit`, s, {
      digest: b.binding.digest,
      csrf: s.csrf,
      input: JSON.stringify({ to: "team@example.com" }),
    });
    expect(edit.status).toBe(303);
    expect((await inbox.get(b.id))?.state).toBe("edited");
    const self = await submit({ caller: "ops" });
    const refused = await send(`/requests/${self.id}/approve`, s, { digest: self.binding.digest, csrf: s.csrf });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toMatch(/role="alert"/);
    const role = await submit({ requireRole: "finance" });
    expect((await send(`/requests/${role.id}/approve`, s, { digest: role.binding.digest, csrf: s.csrf })).status).toBe(
      403,
    );
  });

  it("creates and revokes grants, filters the history, and signs out", async () => {
    const s = await login();
    const made = await send("/grants", s, {
      csrf: s.csrf,
      toolName: "send_email",
      where: '{"to":"ops@example.com"}',
      minutes: "30",
    });
    expect(made.status).toBe(303);
    const [grant] = await inbox.grants.list();
    expect(grant?.where).toEqual({ to: "ops@example.com" });
    const page = await (await server.app.request("/grants", { headers: { cookie: s.cookie } })).text();
    expect(page).toContain(`/grants/${grant?.id}/revoke`);
    expect((await send("/grants", s, { csrf: s.csrf, toolName: "x", where: "{", minutes: "5" })).status).toBe(400);
    expect((await send(`/grants/${grant?.id}/revoke`, s, { csrf: s.csrf })).status).toBe(303);
    expect(await inbox.grants.list()).toEqual([]);
    const denied = await (await server.app.request("/history?state=denied", { headers: { cookie: s.cookie } })).text();
    expect(denied).toContain("wrong list");
    expect(denied).not.toMatch(/<td>approved<\/td>/);
    expect((await send("/logout", s, { csrf: s.csrf })).status).toBe(303);
    expect((await server.app.request("/grants", { headers: { cookie: s.cookie } })).status).toBe(401);
  });

  it("refuses injected ids and serves its script and style as files", async () => {
    const s = await login();
    const res = await send("/requests/..%2Fx%0d%0aSet-Cookie:%20a=b/approve", s, { csrf: s.csrf, digest: "d" });
    expect(res.status).toBe(400);
    expect(res.headers.get("set-cookie")).toBeNull();
    const js = await server.app.request("/static/inbox.js");
    expect(js.headers.get("content-type")).toMatch(/javascript/);
    expect(await js.text()).toContain("EventSource");
  });

  it("streams the inbox's events to a signed-in page over a real socket", async () => {
    const s = await login();
    const live = await server.listen();
    try {
      expect(live.url).toMatch(/^http:\/\/127\.0\.0\.1:/);
      const none = await fetch(`${live.url}/events`);
      expect(none.status).toBe(401);
      const res = await fetch(`${live.url}/events`, { headers: { cookie: s.cookie } });
      expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let text = "";
      while (!text.includes("event: ready")) text += new TextDecoder().decode((await reader.read()).value);
      const r = await submit({ input: { to: "x@example.com", password: "pw-should-not-leak" } });
      while (!text.includes(r.id)) text += new TextDecoder().decode((await reader.read()).value);
      expect(text).toMatch(/event: request/);
      const boss = await inbox.approvers.authenticate(tokens.boss as string);
      await inbox.decide(r.id, { approver: boss as never, approve: false, reason: "no", digest: r.binding.digest });
      await inbox.grants.create({ approver: boss as never, toolName: "lookup", ttlMs: 60_000 });
      while (!text.includes("grant lookup")) text += new TextDecoder().decode((await reader.read()).value);
      expect(text).toMatch(/send_email from agent-1: denied by boss/);
      expect(text).not.toContain("pw-should-not-leak");
      await reader.cancel();
    } finally {
      await live.close();
    }
  });
});
