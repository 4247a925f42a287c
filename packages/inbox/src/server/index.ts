import { type ServerType, serve } from "@hono/node-server";
import { createRedactor, type Redactor, type RedactTextOptions } from "@toolware/packs/redact";
import { Hono } from "hono";
import type { Inbox } from "../contract.js";
import { checkOptions, invalidOption } from "../errors.js";
import { apiRoutes } from "../http/api.js";
import { pageRoutes } from "../page/index.js";

/** Options of {@link createInboxServer}. */
export interface InboxServerOptions {
  /** The inbox the server decides on (`createInbox`). */
  readonly inbox: Inbox;
  /** The largest JSON or form body accepted, in bytes. Default 65 536. */
  readonly bodyLimit?: number;
  /** The address `listen()` binds. Default `127.0.0.1`: put a TLS proxy in front to serve others. */
  readonly hostname?: string;
  /** The port `listen()` binds. Default 7717; 0 picks a free one. */
  readonly port?: number;
  /** How long a page session lasts. Default 8 hours. */
  readonly sessionTtlMs?: number;
  /** Mark the session cookie `Secure` (behind HTTPS). Default false: the default binding is loopback HTTP. */
  readonly secureCookie?: boolean;
  /**
   * How pending requests' arguments are redacted on the page and in the API: the redact pack your
   * stack applies to results (`redact({ … })`, or anything with its `value` function), or the
   * options you give it. Default `{ emails: false }`: secrets, tokens, keys, URL passwords and card
   * numbers are hidden, e-mail addresses shown, since an approver must see who a message goes to.
   */
  readonly redact?: RedactTextOptions | Pick<Redactor, "value">;
}

/** A listening server. */
export interface InboxListening {
  /** `http://<hostname>:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stops listening and ends open event streams. */
  close(): Promise<void>;
}

/** What {@link createInboxServer} returns. */
export interface InboxServer {
  /** The Hono app (`app.request()` in tests, or mount it in your own server). */
  readonly app: Hono;
  /** Binds `hostname:port` (127.0.0.1:7717 by default). */
  listen(): Promise<InboxListening>;
}

const KEYS = ["inbox", "bodyLimit", "hostname", "port", "sessionTtlMs", "secureCookie", "redact"] as const;

/** What the approvers see of a request's arguments, by default: everything but the addressee's kind of secret. */
const APPROVER_RULES: RedactTextOptions = { emails: false };

function redactorOf(rules: unknown): (value: unknown) => unknown {
  if (rules === undefined) return createRedactor(APPROVER_RULES).value;
  if (rules === null || typeof rules !== "object") {
    throw invalidOption("redact must be the redact pack (redact({ … })) or its options object");
  }
  const value = (rules as { value?: unknown }).value;
  // A pack or a compiled redactor brings its own rules; anything else is options, checked by the pack.
  if (typeof value === "function") return (v: unknown) => value.call(rules, v);
  return createRedactor(rules as RedactTextOptions).value;
}

function positive(value: unknown, name: string, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw invalidOption(`${name} must be an integer of at least ${min}`);
  }
  return value;
}

/**
 * The inbox's HTTP server on Hono: the JSON API under `/api` (bearer tokens) and the approvers'
 * page (a session cookie after login, CSRF tokens, a strict Content-Security-Policy).
 *
 * @example
 * ```ts
 * const server = createInboxServer({ inbox });
 * const { url, close } = await server.listen(); // http://127.0.0.1:7717
 * ```
 */
export function createInboxServer(options: InboxServerOptions): InboxServer {
  const o = checkOptions(options, KEYS, "createInboxServer()");
  const inbox = o.inbox as Inbox | undefined;
  if (inbox === undefined || typeof inbox !== "object" || typeof inbox.decide !== "function") {
    throw invalidOption("createInboxServer() needs `inbox` (from createInbox)");
  }
  const bodyLimit = positive(o.bodyLimit, "bodyLimit", 65_536, 256);
  const port = positive(o.port, "port", 7717, 0);
  if (port > 65_535) throw invalidOption("port must be at most 65535");
  const hostname = o.hostname ?? "127.0.0.1";
  if (typeof hostname !== "string" || hostname === "") throw invalidOption("hostname must be a non-empty string");
  const sessionTtlMs = positive(o.sessionTtlMs, "sessionTtlMs", 8 * 3_600_000, 1000);
  if (o.secureCookie !== undefined && typeof o.secureCookie !== "boolean") {
    throw invalidOption("secureCookie must be true or false");
  }
  const show = redactorOf(o.redact);
  const streams = new Set<() => void>();
  const app = new Hono();
  app.use("*", async (c, next) => {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("X-Frame-Options", "DENY");
    c.header("Cache-Control", "no-store");
  });
  app.route("/api", apiRoutes({ inbox, bodyLimit, show }));
  app.route("/", pageRoutes({ inbox, bodyLimit, show, sessionTtlMs, secureCookie: o.secureCookie === true, streams }));
  app.notFound((c) => c.json({ error: { code: "TOOLWARE_INBOX_NOT_FOUND", message: "not found" } }, 404));
  return {
    app,
    listen: () => listen(app, hostname, port, streams),
  };
}

function listen(app: Hono, hostname: string, port: number, streams: Set<() => void>): Promise<InboxListening> {
  return new Promise((resolve, reject) => {
    let server: ServerType | undefined;
    const onError = (error: Error) => reject(error);
    server = serve({ fetch: app.fetch, hostname, port }, (info) => {
      server?.off("error", onError);
      const host = hostname.includes(":") ? `[${hostname}]` : hostname;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            for (const end of streams) end();
            server?.close(() => done());
          }),
      });
    });
    server.once("error", onError);
  });
}

export { type InboxWebhookOptions, inboxWebhooks, signWebhook, verifyWebhook } from "../http/webhooks.js";
