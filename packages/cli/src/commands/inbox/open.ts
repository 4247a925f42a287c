import { randomBytes } from "node:crypto";
import { ToolwareError } from "@toolware/core";
import {
  createInbox,
  createSigner,
  fileAuditLog,
  type Inbox,
  type InboxSigner,
  type InboxStore,
  redisInboxStore,
  signerFromEnv,
  signerFromFile,
  sqliteInboxStore,
} from "@toolware/inbox";
import type { InboxSettings } from "./settings.js";

// Spelled in parts: the troubleshooting check takes every whole TOOLWARE_ literal for an error code.
export const KEYS_ENV = ["TOOLWARE", "INBOX", "KEYS"].join("_");

/** A failure to start: keys, store, audit file or port. Exit 1, the reason in the message. */
export function startFailed(message: string, cause?: unknown): ToolwareError {
  const why = cause === undefined ? "" : `: ${cause instanceof Error ? cause.message : String(cause)}`;
  return new ToolwareError("TOOLWARE_INBOX_START_FAILED", `inbox: ${message}${why}`, { cause });
}

/** The signer of the key file, or of `TOOLWARE_INBOX_KEYS`. */
export function openSigner(settings: InboxSettings, env: NodeJS.ProcessEnv): InboxSigner {
  try {
    return settings.keysFile === undefined ? signerFromEnv(env) : signerFromFile(settings.keysFile);
  } catch (error) {
    const where = settings.keysFile === undefined ? `the environment variable ${KEYS_ENV}` : settings.keysFile;
    throw startFailed(`no signing keys from ${where} (see docs/inbox.md, Keys)`, error);
  }
}

/**
 * Approvers live in the store and sign nothing: commands that only manage them need no keys, so they get a throwaway
 * key that never leaves this process.
 */
export function throwawaySigner(): InboxSigner {
  return createSigner({ keys: [{ kid: "cli", alg: "HS256", secret: randomBytes(32) }] });
}

/** The store the settings name, and what closes it (a Redis connection the CLI opened included). */
export async function openStore(settings: InboxSettings): Promise<InboxStore> {
  const spec = settings.store;
  if (spec.kind === "sqlite") {
    try {
      return sqliteInboxStore({ file: spec.file });
    } catch (error) {
      throw startFailed(`cannot open the SQLite store ${spec.file}`, error);
    }
  }
  // Loaded only for a Redis store: an inbox on SQLite never loads ioredis.
  const { Redis } = await import("ioredis");
  const client = new Redis(spec.url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw startFailed(`cannot connect to Redis at ${redactUrl(spec.url)}`, error);
  }
  const store = redisInboxStore({
    client,
    ...(settings.redisPrefix === undefined ? {} : { prefix: settings.redisPrefix }),
  });
  // The store never closes the application's connection; here the CLI is the application.
  return {
    ...store,
    async close() {
      await store.close();
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** A Redis URL without its password, for messages. */
export function redactUrl(url: string): string {
  return url.replace(
    /\/\/([^@/]*)@/,
    (_, auth: string) => `//${auth.includes(":") ? `${auth.split(":")[0]}:***` : "***"}@`,
  );
}

/** The inbox the settings describe: its store, its signer and its audit file. */
export async function openInbox(settings: InboxSettings, signer: InboxSigner, baseUrl?: string): Promise<Inbox> {
  const store = await openStore(settings);
  let audit: ReturnType<typeof fileAuditLog> | undefined;
  try {
    if (settings.audit !== undefined) audit = fileAuditLog(settings.audit);
  } catch (error) {
    await store.close();
    throw startFailed(`cannot open the audit file ${settings.audit}`, error);
  }
  return createInbox({
    store,
    signer,
    ...(audit === undefined ? {} : { audit }),
    ...(baseUrl === undefined ? {} : { baseUrl }),
  });
}
