import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import type { ApproverRecord, InboxGrant, InboxRequest, InboxStore, ListFilter } from "./contract.js";
import { checkOptions, inboxError, invalidOption } from "./errors.js";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS requests (
  id TEXT PRIMARY KEY, tool TEXT NOT NULL, call_id TEXT NOT NULL, digest TEXT NOT NULL,
  state TEXT NOT NULL, caller TEXT NOT NULL, created_at INTEGER NOT NULL, revision INTEGER NOT NULL, body TEXT NOT NULL,
  UNIQUE (tool, call_id, digest));
CREATE INDEX IF NOT EXISTS requests_state ON requests (state, created_at);
CREATE TABLE IF NOT EXISTS consumed (key TEXT PRIMARY KEY, at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS approvers (name TEXT PRIMARY KEY, body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS grants (id TEXT PRIMARY KEY, body TEXT NOT NULL);
`;

// Loaded when a SQLite store is made: an inbox on Redis needs no native SQLite build.
function openDriver(): typeof BetterSqlite3 {
  try {
    return createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
  } catch (error) {
    throw invalidOption(
      `sqliteInboxStore() needs the package better-sqlite3 12.x (npm install better-sqlite3@12): ${(error as Error).message}`,
    );
  }
}

/** Options of {@link sqliteInboxStore}. */
export interface SqliteInboxStoreOptions {
  /** The database file (created when missing); `":memory:"` for a store that dies with the process. */
  file: string;
}

const parse = <T>(row: { body: string } | undefined): T | undefined =>
  row === undefined ? undefined : (JSON.parse(row.body) as T);

/**
 * The default store: one SQLite file (WAL, so readers in other processes never block the writer),
 * every state change a compare-and-set on the request's revision inside a transaction.
 *
 * @example
 * ```ts
 * const inbox = createInbox({ store: sqliteInboxStore({ file: "inbox.db" }), signer: signerFromEnv() });
 * ```
 */
export function sqliteInboxStore(options: SqliteInboxStoreOptions): InboxStore {
  const o = checkOptions(options, ["file"], "sqliteInboxStore()");
  if (typeof o.file !== "string" || o.file === "") throw invalidOption("sqliteInboxStore() needs `file`: a path");
  const db = new (openDriver())(o.file);
  db.pragma("journal_mode = WAL");
  // Two processes writing at once wait for each other rather than fail at once.
  db.pragma("busy_timeout = 5000");
  db.pragma("synchronous = NORMAL");
  db.exec(SCHEMA);
  const q = {
    insert: db.prepare(
      "INSERT INTO requests (id, tool, call_id, digest, state, caller, created_at, revision, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
    ),
    byCall: db.prepare("SELECT body FROM requests WHERE tool = ? AND call_id = ? AND digest = ?"),
    get: db.prepare("SELECT body FROM requests WHERE id = ?"),
    update: db.prepare("UPDATE requests SET state = ?, revision = ?, body = ? WHERE id = ? AND revision = ?"),
    consume: db.prepare("INSERT INTO consumed (key, at) VALUES (?, ?) ON CONFLICT DO NOTHING"),
    putApprover: db.prepare(
      "INSERT INTO approvers (name, body) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET body = excluded.body",
    ),
    getApprover: db.prepare("SELECT body FROM approvers WHERE name = ?"),
    listApprovers: db.prepare("SELECT body FROM approvers ORDER BY name"),
    removeApprover: db.prepare("DELETE FROM approvers WHERE name = ?"),
    putGrant: db.prepare(
      "INSERT INTO grants (id, body) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body",
    ),
    listGrants: db.prepare("SELECT body FROM grants"),
  };
  const insert = db.transaction((r: InboxRequest) => {
    const { toolName, callId, digest } = r.binding;
    const done = q.insert.run(
      r.id,
      toolName,
      callId,
      digest,
      r.state,
      r.caller,
      r.createdAt,
      r.revision,
      JSON.stringify(r),
    );
    if (done.changes === 1) return { inserted: true as const };
    const existing = parse<InboxRequest>(q.byCall.get(toolName, callId, digest) as { body: string } | undefined);
    if (existing === undefined) throw inboxError("TOOLWARE_INBOX_CONFLICT", `the request id ${r.id} is taken`);
    return { inserted: false as const, existing };
  });
  let open = true;
  const live = (): void => {
    if (!open) throw inboxError("TOOLWARE_INBOX_STORE", "the SQLite store is closed");
  };
  return {
    async insert(request) {
      live();
      return insert.immediate(request);
    },
    async get(id) {
      live();
      return parse<InboxRequest>(q.get.get(id) as { body: string } | undefined);
    },
    async update(next, revision) {
      live();
      return q.update.run(next.state, next.revision, JSON.stringify(next), next.id, revision).changes === 1;
    },
    async list(filter: ListFilter) {
      live();
      const where: string[] = [];
      const args: (string | number)[] = [];
      if (filter.state !== undefined) where.push("state = ?") && args.push(filter.state);
      if (filter.toolName !== undefined) where.push("tool = ?") && args.push(filter.toolName);
      if (filter.caller !== undefined) where.push("caller = ?") && args.push(filter.caller);
      if (filter.since !== undefined) where.push("created_at >= ?") && args.push(filter.since);
      const sql = `SELECT body FROM requests ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY created_at DESC, id LIMIT ?`;
      const rows = db.prepare(sql).all(...args, filter.limit ?? 100) as { body: string }[];
      return rows.map((row) => JSON.parse(row.body) as InboxRequest);
    },
    async consume(key) {
      live();
      return q.consume.run(key, Date.now()).changes === 1;
    },
    async putApprover(record) {
      live();
      q.putApprover.run(record.name, JSON.stringify(record));
    },
    async getApprover(name) {
      live();
      return parse<ApproverRecord>(q.getApprover.get(name) as { body: string } | undefined);
    },
    async listApprovers() {
      live();
      return (q.listApprovers.all() as { body: string }[]).map((row) => JSON.parse(row.body) as ApproverRecord);
    },
    async removeApprover(name) {
      live();
      return q.removeApprover.run(name).changes === 1;
    },
    async putGrant(grant) {
      live();
      q.putGrant.run(grant.id, JSON.stringify(grant));
    },
    async listGrants() {
      live();
      return (q.listGrants.all() as { body: string }[]).map((row) => JSON.parse(row.body) as InboxGrant);
    },
    async close() {
      if (!open) return;
      open = false;
      db.close();
    },
  };
}
