import { createHmac, timingSafeEqual } from "node:crypto";
import type { Inbox, InboxEvent, InboxRequest } from "../contract.js";
import { checkOptions, invalidOption } from "../errors.js";

/** Options of {@link inboxWebhooks}. */
export interface InboxWebhookOptions {
  readonly inbox: Inbox;
  /** Where to POST (http or https). */
  readonly url: string;
  /** The HMAC-SHA256 key of the `X-Toolware-Signature` header: at least 32 characters. */
  readonly secret: string;
  /** `"json"` (default): the event as JSON; `"slack"`: a Slack incoming-webhook message (`text` and `blocks`). */
  readonly preset?: "json" | "slack";
  /** Ends a delivery that takes longer. Default 5000 ms. */
  readonly timeoutMs?: number;
  /** Hears a failed delivery (no retry: the page and the API stay the source of truth). */
  readonly onError?: (error: unknown, event: InboxEvent) => void;
}

const KEYS = ["inbox", "url", "secret", "preset", "timeoutMs", "onError"] as const;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signWebhook(secret: string, body: string, at = Date.now()): string {
  const t = Math.floor(at / 1000);
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/**
 * Checks a webhook's `X-Toolware-Signature` on the receiving side: the HMAC over the timestamp and
 * the raw body, and a timestamp at most `toleranceMs` old (a replayed delivery is refused).
 *
 * @example
 * ```ts
 * if (!verifyWebhook(secret, req.headers["x-toolware-signature"], rawBody)) return res.status(401).end();
 * ```
 */
export function verifyWebhook(secret: string, header: unknown, body: string, toleranceMs = 300_000): boolean {
  const m = typeof header === "string" ? /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header) : null;
  if (m === null) return false;
  const t = Number(m[1]);
  if (Math.abs(Date.now() - t * 1000) > toleranceMs) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2] as string, "hex"));
}

function describe(r: InboxRequest): string {
  if (r.state === "pending") return `${r.binding.toolName} from ${r.caller} waits for approval`;
  const who = r.decision?.approvers.join(", ") || "system";
  const why = r.decision?.reason === undefined ? "" : `: ${r.decision.reason}`;
  return `${r.binding.toolName} from ${r.caller} was ${r.state} by ${who}${why}`;
}

// The payload names the request and links to it; the arguments stay in the inbox.
function payload(preset: "json" | "slack", inbox: Inbox, type: string, r: InboxRequest): unknown {
  const url = inbox.urlOf(r.id);
  if (preset === "json") {
    return {
      type,
      id: r.id,
      state: r.state,
      toolName: r.binding.toolName,
      caller: r.caller,
      url,
      deadline: r.deadline,
    };
  }
  const text = `${describe(r)} (${url})`;
  return {
    text,
    blocks: [{ type: "section", text: { type: "mrkdwn", text: `*${describe(r)}*\n<${url}|Open the request>` } }],
  };
}

/**
 * POSTs a signed webhook when a request waits and when it is decided. Returns the unsubscribe function.
 *
 * @example
 * ```ts
 * const stop = inboxWebhooks({ inbox, url: "https://hooks.example.com/x", secret: process.env.HOOK_SECRET!, preset: "slack" });
 * ```
 */
export function inboxWebhooks(options: InboxWebhookOptions): () => void {
  const o = checkOptions(options, KEYS, "inboxWebhooks()");
  const inbox = o.inbox as Inbox;
  if (typeof inbox?.subscribe !== "function") throw invalidOption("inboxWebhooks() needs `inbox`");
  let url: URL;
  try {
    url = new URL(String(o.url));
  } catch {
    throw invalidOption("inboxWebhooks() needs an http(s) `url`");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalidOption("the webhook url must be http(s)");
  if (typeof o.secret !== "string" || o.secret.length < 32)
    throw invalidOption("the webhook secret needs 32 characters or more");
  const secret = o.secret;
  const preset = o.preset ?? "json";
  if (preset !== "json" && preset !== "slack") throw invalidOption('preset must be "json" or "slack"');
  const timeoutMs = o.timeoutMs ?? 5000;
  if (typeof timeoutMs !== "number" || !(timeoutMs > 0)) throw invalidOption("timeoutMs must be a positive number");
  const onError = o.onError as InboxWebhookOptions["onError"];
  if (onError !== undefined && typeof onError !== "function") throw invalidOption("onError must be a function");
  return inbox.subscribe((event) => {
    if (event.type !== "request" && event.type !== "decision") return;
    const body = JSON.stringify(payload(preset, inbox, event.type, event.request));
    const headers = { "content-type": "application/json", "x-toolware-signature": signWebhook(secret, body) };
    fetch(url, { method: "POST", headers, body, redirect: "error", signal: AbortSignal.timeout(timeoutMs) })
      .then((res) => {
        if (!res.ok) throw new Error(`webhook answered HTTP ${res.status}`);
      })
      .catch((error: unknown) => onError?.(error, event));
  });
}
