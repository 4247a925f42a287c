import { randomBytes } from "node:crypto";
import { type Context, Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Inbox, InboxState } from "../contract.js";
import { inboxHttpStatus } from "../errors.js";
import { decideOne } from "../http/api.js";
import { readUpTo } from "../http/body.js";
import { isInboxId } from "../ids.js";
import { CSS, JS } from "./assets.js";
import { esc, grantRow, historyRow, layout, pendingCard, shownInput } from "./html.js";
import { type Session, Sessions, sameToken } from "./session.js";
import { eventStream } from "./stream.js";

/** Settings of the page routes. @internal */
export interface PageSettings {
  readonly inbox: Inbox;
  readonly bodyLimit: number;
  /** Redacts a request's arguments for display (the server's `redact` rules). */
  readonly show: (value: unknown) => unknown;
  readonly sessionTtlMs: number;
  readonly secureCookie: boolean;
  /** Ends of open event streams, called by `close()`. */
  readonly streams: Set<() => void>;
}

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const SESSION = "toolware_inbox_session";
const LOGIN = "toolware_inbox_login";
/** The most pending requests the page lists (the newest first); the API pages through them all with `since`. */
const LIST_CAP = 1000;
// Requests per page: each carries three forms, and Chromium's cost per form grows with the forms on the page.
const PAGE_SIZE = 50;

function pager(n: number, pages: number, count: number): string {
  if (pages === 1) return "";
  const first = (n - 1) * PAGE_SIZE + 1;
  const link = (to: number, text: string, rel: string) => `<a href="/?page=${to}" rel="${rel}">${text}</a>`;
  return `<nav class="pager" aria-label="Pages of pending requests"><p>Page ${n} of ${pages}: requests ${first} to ${first + count - 1}, newest first.</p>
${n > 1 ? link(n - 1, "Previous page", "prev") : ""} ${n < pages ? link(n + 1, "Next page", "next") : ""}</nav>`;
}
const STATES: readonly InboxState[] = ["pending", "approved", "denied", "edited", "expired"];

function html(c: Context, body: string, status: ContentfulStatusCode = 200): Response {
  c.header("Content-Security-Policy", CSP);
  return c.html(body, status);
}

function problem(c: Context, status: ContentfulStatusCode, message: string, s?: Session): Response {
  const who = s === undefined ? undefined : { name: s.approver.name, csrf: s.csrf };
  const back = s === undefined ? `<a href="/">Sign in</a>` : `<a href="/">Back to the pending requests</a>`;
  return html(c, layout("Refused", `<p role="alert">${esc(message)}</p><p>${back}</p>`, who), status);
}

async function formBody(c: Context, limit: number): Promise<URLSearchParams | Response> {
  if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(c.req.header("content-type") ?? "")) {
    return problem(c, 415, "The form must be sent as application/x-www-form-urlencoded.");
  }
  const bytes = await readUpTo(c.req.raw, limit);
  if (bytes === undefined) return problem(c, 413, `The form is larger than ${limit} bytes.`);
  return new URLSearchParams(new TextDecoder().decode(bytes));
}

/** The approvers' page: login, pending requests, grants, history and the live feed. @internal */
export function pageRoutes(settings: PageSettings): Hono {
  const { inbox, bodyLimit, secureCookie, show } = settings;
  const sessions = new Sessions(inbox, settings.sessionTtlMs);
  const cookie = { httpOnly: true, sameSite: "Strict", secure: secureCookie, path: "/" } as const;
  const page = new Hono();
  const sessionOf = (c: Context) => sessions.find(getCookie(c, SESSION));

  page.get("/static/inbox.css", (c) => c.body(CSS, 200, { "content-type": "text/css; charset=utf-8" }));
  page.get("/static/inbox.js", (c) => c.body(JS, 200, { "content-type": "text/javascript; charset=utf-8" }));

  const loginPage = (c: Context, message?: string, status: ContentfulStatusCode = 200) => {
    const nonce = randomBytes(24).toString("base64url");
    setCookie(c, LOGIN, nonce, { ...cookie, maxAge: 600 });
    const alert = message === undefined ? "" : `<p role="alert">${esc(message)}</p>`;
    return html(
      c,
      layout(
        "Sign in",
        `${alert}<form method="post" action="/login"><input type="hidden" name="csrf" value="${nonce}">
<label for="token">Approver token</label><input id="token" name="token" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>`,
      ),
      status,
    );
  };

  page.post("/login", async (c) => {
    const form = await formBody(c, bodyLimit);
    if (form instanceof Response) return form;
    const expected = getCookie(c, LOGIN);
    if (expected === undefined || !sameToken(expected, form.get("csrf"))) {
      return loginPage(c, "The form expired or lacks its CSRF token: sign in again.", 403);
    }
    const token = form.get("token") ?? "";
    const approver = token.length > 200 ? undefined : await inbox.approvers.authenticate(token);
    if (approver === undefined) return loginPage(c, "Unknown token.", 401);
    const session = sessions.open(approver);
    deleteCookie(c, LOGIN, { path: "/" });
    setCookie(c, SESSION, session.id, { ...cookie, maxAge: Math.floor(settings.sessionTtlMs / 1000) });
    return c.redirect("/", 303);
  });

  // Every other page needs a session; every form its CSRF token.
  page.use("*", async (c, next) => {
    const session = await sessionOf(c);
    if (session === undefined) {
      if (c.req.method === "GET" && c.req.path === "/") return loginPage(c);
      return problem(c, 401, "Sign in first: there is no session, or it expired.");
    }
    c.set("session" as never, session as never);
    if (c.req.method === "POST") {
      const form = await formBody(c, bodyLimit);
      if (form instanceof Response) return form;
      if (!sameToken(session.csrf, form.get("csrf"))) return problem(c, 403, "The form lacks its CSRF token.", session);
      c.set("form" as never, form as never);
    }
    await next();
  });
  const sess = (c: Context) => c.get("session" as never) as Session;
  const form = (c: Context) => c.get("form" as never) as URLSearchParams;

  page.get("/", async (c) => {
    const s = sess(c);
    const pending = await inbox.list({ state: "pending", limit: LIST_CAP });
    const pages = Math.max(1, Math.ceil(pending.length / PAGE_SIZE));
    const asked = c.req.query("page");
    const n = asked !== undefined && /^\d{1,4}$/.test(asked) ? Math.min(Math.max(Number(asked), 1), pages) : 1;
    const shown = pending.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE);
    const now = Date.now();
    const cards = shown.map((r) => pendingCard(r, s.csrf, now, show)).join("") || "<p>Nothing is waiting.</p>";
    const count = pending.length < LIST_CAP ? String(pending.length) : `${LIST_CAP} or more`;
    const body = `<section aria-labelledby="pending-h"><h2 id="pending-h">Pending requests (${count})</h2>${pager(n, pages, shown.length)}${cards}${pages > 1 ? pager(n, pages, shown.length) : ""}</section>
<section aria-labelledby="feed-h"><h2 id="feed-h">Live feed</h2><ul id="feed" aria-live="polite" aria-relevant="additions"></ul></section>`;
    return html(c, layout("Pending approvals", body, { name: s.approver.name, csrf: s.csrf }));
  });

  page.get("/requests/:id", async (c) => {
    const s = sess(c);
    const id = c.req.param("id");
    const r = isInboxId(id) ? await inbox.get(id) : undefined;
    if (r === undefined) return problem(c, 404, "No such request.", s);
    const body =
      r.state === "pending"
        ? pendingCard(r, s.csrf, Date.now(), show)
        : `<p>${esc(r.binding.toolName)}: ${esc(r.state)}</p><pre tabindex="0">${esc(shownInput(r, show))}</pre>`;
    return html(c, layout(`Request ${r.binding.toolName}`, body, { name: s.approver.name, csrf: s.csrf }));
  });

  page.post("/requests/:id/:action", async (c) => {
    const s = sess(c);
    const id = c.req.param("id");
    const action = c.req.param("action");
    if (!isInboxId(id)) return problem(c, 400, "Malformed request id.", s);
    if (action !== "approve" && action !== "reject" && action !== "edit") return problem(c, 404, "No such action.", s);
    const f = form(c);
    const reason = f.get("reason") ?? undefined;
    if (action === "reject" && (reason === undefined || reason.trim() === "")) {
      return problem(c, 400, "A rejection needs a reason: it reaches the agent.", s);
    }
    let input: unknown;
    if (action === "edit") {
      try {
        input = JSON.parse(f.get("input") ?? "");
      } catch {
        return problem(c, 400, "The edited arguments are not valid JSON.", s);
      }
    }
    try {
      await decideOne(inbox, s.approver, id, action, { digest: f.get("digest") ?? "", reason, input }, show);
    } catch (error) {
      const status = inboxHttpStatus(error) as ContentfulStatusCode;
      return problem(c, status, status === 500 ? "Internal error." : (error as Error).message, s);
    }
    return c.redirect("/", 303);
  });

  page.get("/grants", async (c) => {
    const s = sess(c);
    const rows = (await inbox.grants.list()).map((g) => grantRow(g, s.csrf)).join("");
    const body = `<table><caption>Grants in force</caption><thead><tr><th scope="col">Tool</th><th scope="col">Where</th>
<th scope="col">Granted by</th><th scope="col">Expires</th><th scope="col">Reason</th><th scope="col">Action</th></tr></thead>
<tbody>${rows}</tbody></table><h2>New grant</h2><form method="post" action="/grants"><input type="hidden" name="csrf" value="${esc(s.csrf)}">
<label for="g-tool">Tool</label><input id="g-tool" name="toolName" required>
<label for="g-where">Arguments must match (JSON object, e.g. {"to":"ops@example.com"})</label><input id="g-where" name="where" value="{}">
<label for="g-min">Minutes</label><input id="g-min" name="minutes" type="number" min="1" max="10080" value="30" required>
<label for="g-reason">Reason</label><input id="g-reason" name="reason"><button type="submit">Grant</button></form>`;
    return html(c, layout("Grants", body, { name: s.approver.name, csrf: s.csrf }));
  });

  page.post("/grants", async (c) => {
    const s = sess(c);
    const f = form(c);
    const minutes = Number(f.get("minutes"));
    let where: unknown;
    try {
      where = JSON.parse(f.get("where") || "{}");
      if (!Number.isInteger(minutes) || minutes < 1) throw new Error("minutes");
      const reason = f.get("reason") || undefined;
      await inbox.grants.create({
        approver: s.approver,
        toolName: f.get("toolName") ?? "",
        where: where as Record<string, string>,
        ttlMs: minutes * 60_000,
        ...(reason === undefined ? {} : { reason }),
      });
    } catch (error) {
      const status = (error instanceof SyntaxError ? 400 : inboxHttpStatus(error)) as ContentfulStatusCode;
      return problem(c, status === 500 ? 400 : status, `The grant was refused: ${(error as Error).message}`, s);
    }
    return c.redirect("/grants", 303);
  });

  page.post("/grants/:id/revoke", async (c) => {
    const s = sess(c);
    const id = c.req.param("id");
    if (!isInboxId(id) || !id.startsWith("grt_")) return problem(c, 400, "Malformed grant id.", s);
    try {
      await inbox.grants.revoke(id, s.approver);
    } catch (error) {
      return problem(c, inboxHttpStatus(error) as ContentfulStatusCode, (error as Error).message, s);
    }
    return c.redirect("/grants", 303);
  });

  page.get("/history", async (c) => {
    const s = sess(c);
    const q = c.req.query();
    const state = STATES.includes(q.state as InboxState) ? (q.state as InboxState) : undefined;
    const list = await inbox.list({
      ...(state === undefined ? {} : { state }),
      ...(q.tool ? { toolName: q.tool } : {}),
      ...(q.caller ? { caller: q.caller } : {}),
      limit: 200,
    });
    const options = ["", ...STATES]
      .map((v) => `<option value="${v}"${v === (state ?? "") ? " selected" : ""}>${v || "any"}</option>`)
      .join("");
    const body = `<form method="get" action="/history" role="search" aria-label="Filter the history">
<label for="f-state">State</label><select id="f-state" name="state">${options}</select>
<label for="f-tool">Tool</label><input id="f-tool" name="tool" value="${esc(q.tool ?? "")}">
<label for="f-caller">Caller</label><input id="f-caller" name="caller" value="${esc(q.caller ?? "")}">
<button type="submit">Filter</button></form>
<table><caption>Requests, newest first</caption><thead><tr><th scope="col">Tool</th><th scope="col">Caller</th><th scope="col">State</th>
<th scope="col">Decided by</th><th scope="col">Reason</th><th scope="col">Created</th></tr></thead><tbody>${list.map(historyRow).join("")}</tbody></table>`;
    return html(c, layout("History", body, { name: s.approver.name, csrf: s.csrf }));
  });

  page.get("/events", (c) => eventStream(c, inbox, settings.streams));

  page.post("/logout", (c) => {
    sessions.close(sess(c).id);
    deleteCookie(c, SESSION, { path: "/" });
    return c.redirect("/", 303);
  });

  return page;
}
