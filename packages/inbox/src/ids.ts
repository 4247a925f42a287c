import { randomBytes } from "node:crypto";

const ID = /^(req|grt)_[A-Za-z0-9_-]{22}$/;

/** A new random id: the prefix, then 128 random bits in base64url. @internal */
export function newId(prefix: "req" | "grt"): string {
  return `${prefix}_${randomBytes(16).toString("base64url")}`;
}

/**
 * Whether a string has the shape of an inbox id (`req_…` or `grt_…`, 22 base64url characters):
 * ids from a URL or a header are checked with this before they reach a store or a path.
 *
 * @example
 * ```ts
 * isInboxId("req_AAAAAAAAAAAAAAAAAAAAAA"); // true
 * isInboxId("../etc/passwd"); // false
 * ```
 */
export function isInboxId(value: unknown): value is string {
  return typeof value === "string" && ID.test(value);
}
