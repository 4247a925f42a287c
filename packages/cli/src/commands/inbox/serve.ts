import { createServer } from "node:net";
import type { Inbox } from "@toolware/inbox";
import type { InboxListening } from "@toolware/inbox/server";
import { type CommandIO, defineCommand, EXIT } from "../kit.js";
import { KEYS_ENV, openInbox, openSigner, redactUrl, startFailed } from "./open.js";
import type { InboxSettings } from "./settings.js";
import { type InboxFlags, STORE_OPTIONS, settingsFrom } from "./settings-from.js";

// Spelled in parts: the troubleshooting check takes every whole TOOLWARE_ literal for an error code.
const WEBHOOK_SECRET_ENV = ["TOOLWARE", "INBOX", "WEBHOOK", "SECRET"].join("_");
// Pending requests past their deadline are settled as expired this often, so the page never shows a dead one.
const SWEEP_MS = 5000;

// `--port 0` asks for a free port, but request URLs are made before the server listens: take one first.
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

// The server (Hono) is loaded when the inbox starts: the other commands of `toolware` never load it.
const server = () => import("@toolware/inbox/server");

async function webhooks(
  settings: InboxSettings,
  inbox: Inbox,
  io: CommandIO,
  env: NodeJS.ProcessEnv,
): Promise<(() => void)[]> {
  const { inboxWebhooks } = await server();
  return settings.webhooks.map((hook) => {
    const name = hook.secretEnv ?? WEBHOOK_SECRET_ENV;
    const secret = env[name];
    if (secret === undefined || secret.length < 32) {
      throw startFailed(
        `the webhook to ${hook.url} needs its secret in the environment variable ${name} (32 characters or more)`,
      );
    }
    return inboxWebhooks({
      inbox,
      url: hook.url,
      secret,
      preset: hook.preset,
      ...(hook.timeoutMs === undefined ? {} : { timeoutMs: hook.timeoutMs }),
      onError: (error) => io.err(`toolware inbox: webhook to ${hook.url} failed: ${(error as Error).message}\n`),
    });
  });
}

async function listen(settings: InboxSettings, inbox: Inbox, port: number): Promise<InboxListening> {
  const { createInboxServer } = await server();
  const created = createInboxServer({
    inbox,
    hostname: settings.host,
    port,
    secureCookie: settings.secureCookie,
    ...(settings.bodyLimit === undefined ? {} : { bodyLimit: settings.bodyLimit }),
    ...(settings.sessionTtlMs === undefined ? {} : { sessionTtlMs: settings.sessionTtlMs }),
  });
  try {
    return await created.listen();
  } catch (error) {
    throw listenFailed(error, settings.host, port);
  }
}

function listenFailed(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${urlHost(host)}:${port}`;
  if (code === "EADDRINUSE") {
    return startFailed(`cannot listen on ${where}: the port is in use (another inbox?); choose another with --port`);
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return startFailed(`cannot listen on ${where}: no such address on this machine (--host)`, error);
  }
  if (code === "EACCES") return startFailed(`cannot listen on ${where}: permission denied (a port below 1024?)`);
  return startFailed(`cannot listen on ${where}`, error);
}

function stopped(signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return new Promise(() => {});
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** Runs the inbox until `io.signal` aborts (SIGINT, SIGTERM), then drains and closes everything it opened. */
export async function serveInbox(settings: InboxSettings, io: CommandIO, env: NodeJS.ProcessEnv): Promise<number> {
  const signer = openSigner(settings, env);
  const port =
    settings.port === 0
      ? await freePort(settings.host).catch((error: unknown) => {
          throw listenFailed(error, settings.host, 0);
        })
      : settings.port;
  const baseUrl = settings.baseUrl ?? `http://${urlHost(settings.host)}:${port}`;
  const inbox = await openInbox(settings, signer, baseUrl);
  const unsubscribe: (() => void)[] = [];
  let listening: InboxListening | undefined;
  try {
    unsubscribe.push(...(await webhooks(settings, inbox, io, env)));
    listening = await listen(settings, inbox, port);
  } catch (error) {
    for (const stop of unsubscribe) stop();
    await inbox.close();
    throw error;
  }
  const store = settings.store.kind === "sqlite" ? `sqlite:${settings.store.file}` : redactUrl(settings.store.url);
  io.err(`toolware inbox: store ${store}${settings.audit === undefined ? "" : `, audit file ${settings.audit}`}\n`);
  io.out(`toolware inbox: listening on ${listening.url} (Ctrl-C to stop)\n`);
  const sweep = setInterval(() => {
    inbox.expire().catch((error: unknown) => io.err(`toolware inbox: expiring requests failed: ${String(error)}\n`));
  }, SWEEP_MS);
  sweep.unref();
  await stopped(io.signal);
  clearInterval(sweep);
  io.err("toolware inbox: stopping: finishing open requests, closing the store\n");
  for (const stop of unsubscribe) stop();
  // Stops accepting, ends the event streams, lets requests in flight finish; then the store and audit file close.
  await listening.close();
  await inbox.close();
  io.err("toolware inbox: stopped\n");
  return EXIT.ok;
}

/** `toolware inbox`: the inbox's server (API, page, webhooks) from a config file or flags. */
export const serve = defineCommand({
  name: "inbox",
  summary: "start the approval inbox's server (@toolware/inbox): its API, its page, its webhooks",
  description: [
    "Starts the approval inbox of @toolware/inbox: the JSON API under /api and the approvers' page, on",
    "127.0.0.1:7717 unless told otherwise, over a SQLite file (default ./toolware-inbox.db) or Redis. Settings come",
    "from --config FILE (YAML or JSON), then the flags over them. Signing keys come from --keys FILE or the",
    `environment variable ${KEYS_ENV}; webhook secrets from ${WEBHOOK_SECRET_ENV} (or the secretEnv a config`,
    "webhook names). Prints the URL on stdout once listening; SIGINT or SIGTERM stops it cleanly (exit 0).",
    'Approvers: "toolware inbox approver add NAME --role ROLE" prints the new token once.',
  ].join("\n"),
  args: [],
  options: {
    ...STORE_OPTIONS,
    host: { type: "string", value: "HOST", description: "the address to listen on (default 127.0.0.1)" },
    port: { type: "string", value: "N", description: "the port to listen on (default 7717; 0 picks a free one)" },
    "base-url": {
      type: "string",
      value: "URL",
      description: "the page's public address, for request links (default http://HOST:PORT)",
    },
    keys: { type: "string", value: "FILE", description: `a JSON key file (default: the keys in ${KEYS_ENV})` },
    audit: { type: "string", value: "FILE", description: "append every request and decision to this hash-chained log" },
    webhook: {
      type: "string",
      value: "URL",
      description: `POST a signed event when a request waits or is decided (secret in ${WEBHOOK_SECRET_ENV})`,
    },
    "webhook-preset": { type: "string", value: "json|slack", description: "the payload of --webhook (default json)" },
    "secure-cookie": { type: "boolean", description: "mark the session cookie Secure (behind an HTTPS proxy)" },
  },
  failure: "the inbox could not start: no keys, a store or audit file it cannot open, a port in use",
  run({ options }, io) {
    const flags: InboxFlags = options;
    return serveInbox(settingsFrom(flags, io.cwd), io, process.env);
  },
});
