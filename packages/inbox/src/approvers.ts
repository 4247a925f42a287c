import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Approver, ApproverRecord, ApproverRegistry, InboxStore } from "./contract.js";
import { checkOptions, checkText, inboxError } from "./errors.js";

// Approver objects this process handed out after checking a token: a look-alike object is nobody.
const issued = new WeakSet<Approver>();

const hashOf = (token: string): string => `sha256:${createHash("sha256").update(token, "utf8").digest("hex")}`;

function approverOf(record: ApproverRecord): Approver {
  const approver = Object.freeze({ name: record.name, roles: Object.freeze([...record.roles]) });
  issued.add(approver);
  return approver;
}

/** The approver as stored now (roles may have changed, the approver may be gone): refused unless it was authenticated. @internal */
export async function currentApprover(store: InboxStore, approver: unknown): Promise<ApproverRecord> {
  if (approver === null || typeof approver !== "object" || !issued.has(approver as Approver)) {
    throw inboxError(
      "TOOLWARE_INBOX_UNAUTHORIZED",
      "the approver was not authenticated by this inbox (approvers.authenticate(token))",
    );
  }
  const record = await store.getApprover((approver as Approver).name);
  if (record === undefined)
    throw inboxError("TOOLWARE_INBOX_UNAUTHORIZED", `the approver ${(approver as Approver).name} was removed`);
  return record;
}

/** Approvers with tokens of 256 random bits, stored as SHA-256 hashes. @internal */
export function approverRegistry(store: InboxStore): ApproverRegistry {
  return {
    async add(options) {
      const o = checkOptions(options, ["name", "roles", "token"], "approvers.add()");
      const name = checkText(o.name, "an approver's name", 100);
      const roles = o.roles === undefined ? [] : o.roles;
      if (!Array.isArray(roles))
        throw inboxError("TOOLWARE_INBOX_INVALID", "an approver's roles must be an array of strings");
      for (const role of roles) checkText(role, "a role", 100);
      // A chosen token must be as hard to guess as a generated one: its hash is a plain SHA-256.
      if (o.token !== undefined && (typeof o.token !== "string" || o.token.length < 32)) {
        throw inboxError(
          "TOOLWARE_INBOX_INVALID",
          "an approver's token must be a string of at least 32 random characters",
        );
      }
      const token = (o.token as string | undefined) ?? `twa_${randomBytes(32).toString("base64url")}`;
      const tokenHash = hashOf(token);
      const record: ApproverRecord = {
        name,
        roles: [...new Set(roles as string[])],
        tokenHash,
        lookup: tokenHash.slice(7, 15),
      };
      await store.putApprover(record);
      return { approver: approverOf(record), token };
    },
    remove: (name) => store.removeApprover(name),
    async list() {
      return (await store.listApprovers()).map((r) =>
        Object.freeze({ name: r.name, roles: Object.freeze([...r.roles]) }),
      );
    },
    async authenticate(token) {
      if (typeof token !== "string" || token === "" || token.length > 512) return undefined;
      const given = Buffer.from(hashOf(token), "utf8");
      let found: ApproverRecord | undefined;
      // Every record compared in constant time, and all of them: the time taken says nothing about which one matched.
      for (const record of await store.listApprovers()) {
        const stored = Buffer.from(record.tokenHash, "utf8");
        if (stored.length === given.length && timingSafeEqual(stored, given)) found = record;
      }
      return found === undefined ? undefined : approverOf(found);
    },
  };
}
