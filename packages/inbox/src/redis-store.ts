import { createHash } from "node:crypto";
import type { RedisClient } from "@toolware/redis";
import type { Redis } from "ioredis";
import type { ApproverRecord, InboxGrant, InboxRequest, InboxStore, ListFilter } from "./contract.js";
import { checkOptions, inboxError, invalidOption } from "./errors.js";

/** Options of {@link redisInboxStore}. */
export interface RedisInboxStoreOptions {
  /** The application's connection (as for `@toolware/redis`): the store never closes it. */
  client: RedisClient;
  /** Put before every key. Default `"toolware:"`. No braces: the store adds its own hash tag. */
  prefix?: string;
}

// Inserts a request unless its call already has one: KEYS = call index, request key, list index.
const INSERT = `
local existing = redis.call('GET', KEYS[1])
if existing then return {0, redis.call('GET', existing) or ''} end
redis.call('SET', KEYS[1], KEYS[2])
redis.call('SET', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
return {1, ''}`;

// Compare and set on the revision: KEYS = request key.
const UPDATE = `
local body = redis.call('GET', KEYS[1])
if not body then return 0 end
if cjson.decode(body).revision ~= tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1])
return 1`;

/**
 * The store for an inbox shared by several processes or machines: each state change is one Lua
 * script (atomic, compare-and-set on the revision). Every key sits under one hash tag, so a Redis
 * Cluster keeps the inbox on one slot.
 *
 * @example
 * ```ts
 * const inbox = createInbox({ store: redisInboxStore({ client: new Redis() }), signer: signerFromEnv() });
 * ```
 */
export function redisInboxStore(options: RedisInboxStoreOptions): InboxStore {
  const o = checkOptions(options, ["client", "prefix"], "redisInboxStore()");
  const client = o.client as Redis;
  if (client === null || typeof client !== "object" || typeof client.eval !== "function")
    throw invalidOption("redisInboxStore() needs `client`: an ioredis client");
  const prefix = o.prefix ?? "toolware:";
  if (typeof prefix !== "string" || /[{}]/.test(prefix))
    throw invalidOption("`prefix` must be a string without braces");
  const base = `${prefix}{inbox}:`;
  const k = {
    request: (id: string) => `${base}req:${id}`,
    call: (r: InboxRequest) =>
      `${base}call:${createHash("sha256")
        .update(JSON.stringify([r.binding.toolName, r.binding.callId, r.binding.digest]))
        .digest("hex")}`,
    index: `${base}index`,
    consumed: (key: string) => `${base}used:${key}`,
    approvers: `${base}approvers`,
    grants: `${base}grants`,
  };
  const parse = <T>(text: string | null | undefined): T | undefined => (text ? (JSON.parse(text) as T) : undefined);
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw inboxError("TOOLWARE_INBOX_STORE", `Redis did not answer: ${(error as Error).message}`, error);
    }
  };
  return {
    insert: (request) =>
      guard(async () => {
        const [inserted, body] = (await client.eval(
          INSERT,
          3,
          k.call(request),
          k.request(request.id),
          k.index,
          JSON.stringify(request),
          request.createdAt,
          request.id,
        )) as [number, string];
        if (inserted === 1) return { inserted: true as const };
        const existing = parse<InboxRequest>(body);
        if (existing === undefined) throw new Error("the request its call names is gone");
        return { inserted: false as const, existing };
      }),
    get: (id) => guard(async () => parse<InboxRequest>(await client.get(k.request(id)))),
    update: (next, revision) =>
      guard(async () => (await client.eval(UPDATE, 1, k.request(next.id), JSON.stringify(next), revision)) === 1),
    list: (filter: ListFilter) =>
      guard(async () => {
        const limit = filter.limit ?? 100;
        const out: InboxRequest[] = [];
        const min = filter.since === undefined ? "-inf" : String(filter.since);
        // Newest first, a page at a time, until the filter has found `limit` requests.
        for (let offset = 0; out.length < limit; offset += 500) {
          const ids = await client.zrevrangebyscore(k.index, "+inf", min, "LIMIT", offset, 500);
          if (ids.length === 0) break;
          const bodies = await client.mget(ids.map(k.request));
          for (const body of bodies) {
            const r = parse<InboxRequest>(body);
            if (r === undefined) continue;
            if (filter.state !== undefined && r.state !== filter.state) continue;
            if (filter.toolName !== undefined && r.binding.toolName !== filter.toolName) continue;
            if (filter.caller !== undefined && r.caller !== filter.caller) continue;
            out.push(r);
            if (out.length === limit) break;
          }
        }
        return out;
      }),
    consume: (key) => guard(async () => (await client.set(k.consumed(key), "1", "NX")) === "OK"),
    putApprover: (record) =>
      guard(async () => void (await client.hset(k.approvers, record.name, JSON.stringify(record)))),
    getApprover: (name) => guard(async () => parse<ApproverRecord>(await client.hget(k.approvers, name))),
    listApprovers: () =>
      guard(async () =>
        Object.values(await client.hgetall(k.approvers))
          .map((t) => JSON.parse(t) as ApproverRecord)
          .sort((a, b) => (a.name < b.name ? -1 : 1)),
      ),
    removeApprover: (name) => guard(async () => (await client.hdel(k.approvers, name)) === 1),
    putGrant: (grant) => guard(async () => void (await client.hset(k.grants, grant.id, JSON.stringify(grant)))),
    listGrants: () =>
      guard(async () => Object.values(await client.hgetall(k.grants)).map((t) => JSON.parse(t) as InboxGrant)),
    // The connection is the application's: closing the store leaves it open.
    async close() {},
  };
}
