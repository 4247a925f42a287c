import { Hono } from "hono";
import type { Approver, Inbox, InboxState, ListFilter } from "../contract.js";
import { inboxError } from "../errors.js";
import { isInboxId } from "../ids.js";
import { jsonBody, unknownKey } from "./body.js";
import { fail, failWith, publicGrant, publicRequest } from "./respond.js";
import { schemaProblems } from "./schema.js";

/** Settings the JSON API shares with the page. @internal */
export interface ApiSettings {
  readonly inbox: Inbox;
  readonly bodyLimit: number;
  /** Redacts a request's arguments for display (the server's `redact` rules). */
  readonly show: (value: unknown) => unknown;
}

type Env = { Variables: { approver: Approver } };

const STATES: readonly InboxState[] = ["pending", "approved", "denied", "edited", "expired"];
// A token is 256 bits in base64url or hex; anything else is refused before the registry is asked.
const TOKEN = /^Bearer ([A-Za-z0-9._~+/=-]{16,200})$/;

function listFilter(query: Record<string, string>): ListFilter | string {
  const filter: { -readonly [K in keyof ListFilter]: ListFilter[K] } = {};
  for (const [key, value] of Object.entries(query)) {
    if (key === "state") {
      if (!STATES.includes(value as InboxState)) return `state must be one of ${STATES.join(", ")}`;
      filter.state = value as InboxState;
    } else if (key === "tool") filter.toolName = value;
    else if (key === "caller") filter.caller = value;
    else if (key === "since" || key === "limit") {
      const n = Number(value);
      if (!/^\d{1,15}$/.test(value) || (key === "limit" && (n < 1 || n > 1000))) return `${key} must be a number`;
      filter[key] = n;
    } else return `unknown query parameter "${key}" (known: state, tool, caller, since, limit)`;
  }
  return filter;
}

/** The JSON API under `/api`: bearer tokens only, never a secret in a URL. @internal */
export function apiRoutes(settings: ApiSettings): Hono<Env> {
  const { inbox, bodyLimit, show } = settings;
  const api = new Hono<Env>();

  api.use("*", async (c, next) => {
    const match = TOKEN.exec(c.req.header("authorization") ?? "");
    const approver = match?.[1] === undefined ? undefined : await inbox.approvers.authenticate(match[1]);
    if (approver === undefined) {
      c.header("WWW-Authenticate", 'Bearer realm="toolware-inbox"');
      return fail(c, 401, "TOOLWARE_INBOX_UNAUTHORIZED", "an approver's token is required (Authorization: Bearer …)");
    }
    c.set("approver", approver);
    await next();
  });

  api.get("/requests", async (c) => {
    const filter = listFilter(c.req.query());
    if (typeof filter === "string") return fail(c, 400, "TOOLWARE_INBOX_INVALID", filter);
    const list = await inbox.list(filter);
    return c.json({ requests: list.map((r) => publicRequest(r, show)) });
  });

  api.get("/requests/:id", async (c) => {
    const id = c.req.param("id");
    if (!isInboxId(id)) return fail(c, 400, "TOOLWARE_INBOX_INVALID", "malformed request id");
    const r = await inbox.get(id);
    if (r === undefined) return fail(c, 404, "TOOLWARE_INBOX_NOT_FOUND", "no such request");
    return c.json({ request: publicRequest(r, show) });
  });

  api.post("/requests/:id/:action", async (c) => {
    const id = c.req.param("id");
    const action = c.req.param("action");
    if (!isInboxId(id)) return fail(c, 400, "TOOLWARE_INBOX_INVALID", "malformed request id");
    if (action !== "approve" && action !== "reject" && action !== "edit") {
      return fail(c, 404, "TOOLWARE_INBOX_NOT_FOUND", "no such action (approve, reject, edit)");
    }
    const body = await jsonBody(c, bodyLimit);
    if (body instanceof Response) return body;
    const extra = unknownKey(body, action === "edit" ? ["digest", "input", "reason"] : ["digest", "reason"]);
    if (extra !== undefined) return fail(c, 400, "TOOLWARE_INBOX_INVALID", `unknown field "${extra}"`);
    if (typeof body.digest !== "string") {
      return fail(c, 400, "TOOLWARE_INBOX_INVALID", "`digest` (the digest of the arguments you saw) is required");
    }
    if (action === "reject" && (typeof body.reason !== "string" || body.reason.trim() === "")) {
      return fail(c, 400, "TOOLWARE_INBOX_INVALID", "a rejection needs a reason (it reaches the agent)");
    }
    try {
      return c.json(await decideOne(inbox, c.get("approver"), id, action, body, show));
    } catch (error) {
      return failWith(c, error);
    }
  });

  api.get("/grants", async (c) => {
    const all = c.req.query("all") === "1";
    return c.json({ grants: (await inbox.grants.list({ all })).map(publicGrant) });
  });

  api.post("/grants", async (c) => {
    const body = await jsonBody(c, bodyLimit);
    if (body instanceof Response) return body;
    const extra = unknownKey(body, ["toolName", "where", "ttlMs", "reason"]);
    if (extra !== undefined) return fail(c, 400, "TOOLWARE_INBOX_INVALID", `unknown field "${extra}"`);
    try {
      const grant = await inbox.grants.create({
        ...(body as { toolName: string; ttlMs: number }),
        approver: c.get("approver"),
      });
      return c.json({ grant: publicGrant(grant) }, 201);
    } catch (error) {
      return failWith(c, error);
    }
  });

  api.delete("/grants/:id", async (c) => {
    const id = c.req.param("id");
    if (!isInboxId(id) || !id.startsWith("grt_")) return fail(c, 400, "TOOLWARE_INBOX_INVALID", "malformed grant id");
    try {
      return c.json({ grant: publicGrant(await inbox.grants.revoke(id, c.get("approver"))) });
    } catch (error) {
      return failWith(c, error);
    }
  });

  // Answered here, so an unknown API route never falls through to the page's HTML.
  api.all("*", (c) => fail(c, 404, "TOOLWARE_INBOX_NOT_FOUND", "no such API route"));
  return api;
}

/** One decision, shared by the API and the page's forms. @internal */
export async function decideOne(
  inbox: Inbox,
  approver: Approver,
  id: string,
  action: "approve" | "reject" | "edit",
  body: Readonly<Record<string, unknown>>,
  show: (value: unknown) => unknown,
): Promise<Record<string, unknown>> {
  const reason = body.reason === undefined || body.reason === "" ? undefined : (body.reason as string);
  if (action !== "edit") {
    const r = await inbox.decide(id, {
      approver,
      approve: action === "approve",
      reason,
      digest: body.digest as string,
    });
    return { request: publicRequest(r, show) };
  }
  const current = await inbox.get(id);
  const problems = schemaProblems(current?.schema, body.input);
  if (problems.length > 0) {
    throw inboxError(
      "TOOLWARE_INBOX_INVALID",
      `the edited arguments do not fit the tool's schema: ${problems.join("; ")}`,
    );
  }
  const { edited, next } = await inbox.edit(id, { approver, input: body.input, digest: body.digest as string, reason });
  return { request: publicRequest(edited, show), next: publicRequest(next, show) };
}
