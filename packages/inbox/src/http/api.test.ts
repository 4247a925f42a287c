import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Inbox } from "../contract.js";
import { createInboxServer } from "../server/index.js";
import { openInbox, sqliteKind } from "../test-utils.js";

const kind = sqliteKind();
let inbox: Inbox;
let tokens: Record<string, string>;
let app: ReturnType<typeof createInboxServer>["app"];
let n = 0;

beforeAll(async () => {
  ({ inbox, tokens } = await openInbox(kind));
  app = createInboxServer({ inbox, bodyLimit: 1024 }).app;
});
afterAll(async () => {
  await inbox.close();
  await kind.stop();
});

const auth = (who = "boss") => ({ authorization: `Bearer ${tokens[who]}` });
const json = (who = "boss") => ({ ...auth(who), "content-type": "application/json" });

async function submit(extra: Record<string, unknown> = {}) {
  n += 1;
  const { request } = await inbox.submit({
    toolName: "send_email",
    callId: `call-${n}`,
    input: { to: "ops@example.com", body: "hi", password: "hunter2" },
    caller: "agent-1",
    ...extra,
  });
  return request;
}

function post(path: string, body: unknown, who = "boss") {
  return app.request(path, { method: "POST", headers: json(who), body: JSON.stringify(body) });
}

describe("the JSON API", () => {
  it("lists and gets requests for an approver, arguments redacted", async () => {
    const r = await submit();
    const list = await app.request("/api/requests?state=pending&tool=send_email", { headers: auth() });
    expect(list.status).toBe(200);
    const body = (await list.json()) as { requests: { id: string; input: Record<string, unknown> }[] };
    const mine = body.requests.find((x) => x.id === r.id);
    expect(mine?.input.password).toBe("[REDACTED]");
    const one = await app.request(`/api/requests/${r.id}`, { headers: auth() });
    expect(((await one.json()) as { request: { digest: string } }).request.digest).toBe(r.binding.digest);
  });

  it("filters by since and limit, and refuses bad filters", async () => {
    const r = await submit();
    const res = await app.request(`/api/requests?since=${r.createdAt}&limit=1&caller=agent-1`, { headers: auth() });
    const body = (await res.json()) as { requests: { id: string }[] };
    expect(body.requests).toHaveLength(1);
    for (const q of ["limit=0", "limit=abc", "state=done", "since=-1"]) {
      expect((await app.request(`/api/requests?${q}`, { headers: auth() })).status).toBe(400);
    }
    expect((await app.request("/api/requests/req_AAAAAAAAAAAAAAAAAAAAAA", { headers: auth() })).status).toBe(404);
    expect((await app.request("/api/requests/nope", { headers: auth() })).status).toBe(400);
    expect((await post(`/api/requests/${r.id}/delete`, { digest: r.binding.digest })).status).toBe(404);
    expect((await post(`/api/requests/${r.id}/approve`, {})).status).toBe(400);
    const gone = await app.request("/api/grants/grt_AAAAAAAAAAAAAAAAAAAAAA", { method: "DELETE", headers: auth() });
    expect(gone.status).toBe(404);
    expect((await post("/api/grants", { toolName: "x", ttlMs: -5 })).status).toBe(400);
    expect((await app.request("/api/grants?all=1", { headers: auth() })).status).toBe(200);
    const unknown = await app.request("/api/nothing", { headers: auth() });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe("TOOLWARE_INBOX_NOT_FOUND");
  });

  it("refuses no token, a wrong token and a token in the URL", async () => {
    expect((await app.request("/api/requests")).status).toBe(401);
    const wrong = await app.request("/api/requests", { headers: { authorization: "Bearer x".padEnd(60, "y") } });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("TOOLWARE_INBOX_UNAUTHORIZED");
    expect((await app.request(`/api/requests?token=${tokens.boss}`)).status).toBe(401);
    expect((await app.request("/api/requests?sate=pending", { headers: auth() })).status).toBe(400);
  });

  it("approves once; a second decision is 409", async () => {
    const r = await submit();
    const ok = await post(`/api/requests/${r.id}/approve`, { digest: r.binding.digest });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { request: { state: string } }).request.state).toBe("approved");
    const again = await post(`/api/requests/${r.id}/reject`, { digest: r.binding.digest, reason: "no" }, "ops");
    expect(again.status).toBe(409);
    expect((await inbox.get(r.id))?.state).toBe("approved");
  });

  it("rejects with a reason that reaches the request, and needs one", async () => {
    const r = await submit();
    expect((await post(`/api/requests/${r.id}/reject`, { digest: r.binding.digest })).status).toBe(400);
    const res = await post(`/api/requests/${r.id}/reject`, { digest: r.binding.digest, reason: "not today" });
    expect(res.status).toBe(200);
    expect((await inbox.get(r.id))?.decision?.reason).toBe("not today");
  });

  it("refuses a decision for other arguments, a wrong role and self-approval", async () => {
    const r = await submit();
    expect((await post(`/api/requests/${r.id}/approve`, { digest: "sha256:00" })).status).toBe(409);
    const role = await submit({ requireRole: "finance" });
    expect((await post(`/api/requests/${role.id}/approve`, { digest: role.binding.digest }, "ops")).status).toBe(403);
    const self = await submit({ caller: "ops" });
    expect((await post(`/api/requests/${self.id}/approve`, { digest: self.binding.digest }, "ops")).status).toBe(403);
    for (const x of [r, role, self]) expect((await inbox.get(x.id))?.state).toBe("pending");
  });

  it("edits then approves, checked against the tool's schema", async () => {
    const schema = {
      type: "object",
      properties: { to: { type: "string", pattern: "@example\\.com$" }, body: { type: "string" } },
      required: ["to"],
      additionalProperties: false,
    };
    const r = await submit({ schema, input: { to: "a@example.com", body: "x" } });
    const bad = await post(`/api/requests/${r.id}/edit`, { digest: r.binding.digest, input: { to: "a@evil.com" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/\$\.to/);
    const extra = await post(`/api/requests/${r.id}/edit`, {
      digest: r.binding.digest,
      input: { to: "b@example.com", cc: "x" },
    });
    expect(extra.status).toBe(400);
    const ok = await post(`/api/requests/${r.id}/edit`, { digest: r.binding.digest, input: { to: "b@example.com" } });
    expect(ok.status).toBe(200);
    const body = (await ok.json()) as { request: { state: string }; next: { id: string; state: string } };
    expect(body.request.state).toBe("edited");
    expect(body.next.state).toBe("approved");
    expect((await inbox.get(body.next.id))?.input).toEqual({ to: "b@example.com" });
  });

  it("refuses malformed JSON, a non-object, a wrong type, unknown fields and an oversized body", async () => {
    const r = await submit();
    const path = `/api/requests/${r.id}/approve`;
    const bad = await app.request(path, { method: "POST", headers: json(), body: "{nope" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("TOOLWARE_INBOX_INVALID");
    expect((await app.request(path, { method: "POST", headers: json(), body: "[1]" })).status).toBe(400);
    expect((await app.request(path, { method: "POST", headers: auth(), body: "{}" })).status).toBe(415);
    expect((await post(path, { digest: r.binding.digest, approved: true })).status).toBe(400);
    const big = await post(path, { digest: r.binding.digest, reason: "x".repeat(5000) });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe("TOOLWARE_INBOX_TOO_LARGE");
    expect((await inbox.get(r.id))?.state).toBe("pending");
  });

  it("refuses path and header injection in ids", async () => {
    for (const id of ["..%2F..%2Fetc%2Fpasswd", "req_short", "req_AAAAAAAAAAAAAAAAAAAAA%0D%0ASet-Cookie:x"]) {
      const res = await post(`/api/requests/${id}/approve`, { digest: "d" });
      expect(res.status).toBe(400);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(
      (await app.request("/api/grants/req_AAAAAAAAAAAAAAAAAAAAAA", { method: "DELETE", headers: auth() })).status,
    ).toBe(400);
  });

  it("creates, lists and revokes grants", async () => {
    const created = await post("/api/grants", {
      toolName: "send_email",
      where: { to: "ops@example.com" },
      ttlMs: 60_000,
    });
    expect(created.status).toBe(201);
    const { grant } = (await created.json()) as { grant: { id: string; grantedBy: string } };
    expect(grant.grantedBy).toBe("boss");
    const listed = (await (await app.request("/api/grants", { headers: auth() })).json()) as {
      grants: { id: string }[];
    };
    expect(listed.grants.map((g) => g.id)).toContain(grant.id);
    const revoked = await app.request(`/api/grants/${grant.id}`, { method: "DELETE", headers: auth("ops") });
    expect(revoked.status).toBe(200);
    const after = (await (await app.request("/api/grants", { headers: auth() })).json()) as {
      grants: { id: string }[];
    };
    expect(after.grants.map((g) => g.id)).not.toContain(grant.id);
    expect((await post("/api/grants", { toolName: "send_email", ttl: 5 })).status).toBe(400);
  });

  it("lets exactly one of two concurrent deciders win", async () => {
    const r = await submit();
    const [a, b] = await Promise.all([
      post(`/api/requests/${r.id}/approve`, { digest: r.binding.digest }, "boss"),
      post(`/api/requests/${r.id}/reject`, { digest: r.binding.digest, reason: "no" }, "ops"),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
  });

  it("refuses unknown and mistyped server options", () => {
    expect(() => createInboxServer({ inbox, bodyLimt: 5 } as never)).toThrow(/did you mean "bodyLimit"/);
    expect(() => createInboxServer({ inbox, port: -1 })).toThrow(/port/);
    expect(() => createInboxServer({} as never)).toThrow(/inbox/);
  });
});
