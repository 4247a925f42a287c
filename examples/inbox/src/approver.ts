// The approver's side, as a script or a chat bot would do it: only the inbox's HTTP API and a bearer token.

/** A request as `GET /api/requests` lists it (the fields this script reads). */
export interface ListedRequest {
  readonly id: string;
  readonly toolName: string;
  readonly caller: string;
  readonly digest: string;
  readonly input: Record<string, unknown>;
}

/** What the approver decides for one request: approve, or reject with a reason the agent will read. */
export type Verdict = { approve: true } | { approve: false; reason: string };

async function call(url: string, token: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as unknown;
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Decides pending requests over the API until `count` are decided: each decision carries the digest of the
 * arguments the approver saw, so it cannot approve other arguments than those.
 */
export async function approveOverHttp(
  url: string,
  token: string,
  count: number,
  decide: (request: ListedRequest) => Verdict,
  print: (line: string) => void,
): Promise<void> {
  const done = new Set<string>();
  while (done.size < count) {
    const { requests } = (await call(url, token, "/api/requests?state=pending")) as { requests: ListedRequest[] };
    for (const r of requests.filter((q) => !done.has(q.id))) {
      const verdict = decide(r);
      print(
        `  approver: ${r.toolName}(${JSON.stringify(r.input)}) from ${r.caller}: ${verdict.approve ? "approve" : `reject (${verdict.reason})`}`,
      );
      const path = `/api/requests/${r.id}/${verdict.approve ? "approve" : "reject"}`;
      await call(
        url,
        token,
        path,
        verdict.approve ? { digest: r.digest } : { digest: r.digest, reason: verdict.reason },
      );
      done.add(r.id);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
