import type { Approver, GrantCondition, GrantRegistry, InboxGrant, InboxRequest, InboxStore } from "./contract.js";
import { checkOptions, checkText, inboxError } from "./errors.js";
import { isInboxId, newId } from "./ids.js";

type Scalar = string | number | boolean;

function globMatch(pattern: string, value: string): boolean {
  const parts = pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`, "s").test(value);
}

function scalarMatch(expected: Scalar, actual: unknown): boolean {
  if (typeof expected === "string" && typeof actual === "string")
    return expected.includes("*") ? globMatch(expected, actual) : expected === actual;
  return expected === actual;
}

/** Whether a call's arguments meet a grant's condition: every key present and matching. @internal */
export function conditionMet(where: GrantCondition, input: unknown): boolean {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return Object.keys(where).length === 0;
  for (const [key, expected] of Object.entries(where)) {
    if (!Object.hasOwn(input, key)) return false;
    const actual = (input as Record<string, unknown>)[key];
    const options = Array.isArray(expected) ? (expected as Scalar[]) : [expected as Scalar];
    if (!options.some((e) => scalarMatch(e, actual))) return false;
  }
  return true;
}

function checkCondition(where: unknown): GrantCondition {
  if (where === undefined) return {};
  if (where === null || typeof where !== "object" || Array.isArray(where)) {
    throw inboxError("TOOLWARE_INBOX_INVALID", "a grant's `where` must be an object of argument conditions");
  }
  const scalar = (v: unknown) =>
    typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
  for (const [key, value] of Object.entries(where)) {
    if (!(scalar(value) || (Array.isArray(value) && value.length > 0 && value.every(scalar)))) {
      throw inboxError(
        "TOOLWARE_INBOX_INVALID",
        `the grant condition on "${key}" must be a string, number, boolean or a list of them`,
      );
    }
  }
  return JSON.parse(JSON.stringify(where)) as GrantCondition;
}

/** A grant in force that approves this request without asking, if any. @internal */
export function grantFor(grants: readonly InboxGrant[], request: InboxRequest, now: number): InboxGrant | undefined {
  // A grant stands for one approver: not for a request that needs two, nor for the granter's own calls.
  if (request.requiredApprovals !== 1) return undefined;
  return grants.find(
    (g) =>
      g.revokedAt === undefined &&
      g.expiresAt > now &&
      g.toolName === request.binding.toolName &&
      (request.allowSelfApproval || g.grantedBy !== request.caller) &&
      conditionMet(g.where, request.input),
  );
}

export interface GrantHooks {
  readonly store: InboxStore;
  readonly now: () => number;
  /** Checks the approver and returns its roles now. */
  approver(approver: Approver): Promise<{ name: string; roles: readonly string[] }>;
  recorded(grant: InboxGrant, type: "grant" | "revoke"): Promise<void>;
}

/** Time-boxed grants, recorded and revocable. @internal */
export function grantRegistry(h: GrantHooks): GrantRegistry {
  return {
    async create(options) {
      const o = checkOptions(options, ["approver", "toolName", "where", "ttlMs", "reason"], "grants.create()");
      const by = await h.approver(o.approver as Approver);
      const ttl = o.ttlMs;
      if (typeof ttl !== "number" || !(ttl > 0) || ttl > 366 * 86_400_000) {
        throw inboxError(
          "TOOLWARE_INBOX_INVALID",
          "a grant's `ttlMs` must be a positive number of milliseconds, at most a year",
        );
      }
      const at = h.now();
      const grant: InboxGrant = {
        id: newId("grt"),
        toolName: checkText(o.toolName, "a grant's toolName"),
        where: checkCondition(o.where),
        grantedBy: by.name,
        createdAt: at,
        expiresAt: at + ttl,
        revokedAt: undefined,
        revokedBy: undefined,
        reason: o.reason === undefined ? undefined : checkText(o.reason, "a grant's reason", 2000),
      };
      await h.store.putGrant(grant);
      await h.recorded(grant, "grant");
      return grant;
    },
    async revoke(id, approver) {
      const by = await h.approver(approver);
      const grant = isInboxId(id) ? (await h.store.listGrants()).find((g) => g.id === id) : undefined;
      if (grant === undefined) throw inboxError("TOOLWARE_INBOX_NOT_FOUND", "no such grant");
      if (grant.revokedAt !== undefined)
        throw inboxError("TOOLWARE_INBOX_CONFLICT", `the grant ${id} was revoked already`);
      const revoked: InboxGrant = { ...grant, revokedAt: h.now(), revokedBy: by.name };
      await h.store.putGrant(revoked);
      await h.recorded(revoked, "revoke");
      return revoked;
    },
    async list(options) {
      const all = options?.all === true;
      const now = h.now();
      const grants = await h.store.listGrants();
      return grants
        .filter((g) => all || (g.revokedAt === undefined && g.expiresAt > now))
        .sort((a, b) => b.createdAt - a.createdAt);
    },
  };
}
