import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Approver, Inbox } from "../contract.js";

/** A logged-in approver's page session: kept in the server, only its random id goes to the browser. @internal */
export interface Session {
  readonly id: string;
  readonly approver: Approver;
  readonly csrf: string;
  readonly expires: number;
}

const SID = /^[A-Za-z0-9_-]{43}$/;

/** Server-side sessions that expire; the cookie carries 256 random bits and nothing else. @internal */
export class Sessions {
  readonly #byId = new Map<string, Session>();
  readonly #ttlMs: number;
  readonly #inbox: Inbox;

  constructor(inbox: Inbox, ttlMs: number) {
    this.#inbox = inbox;
    this.#ttlMs = ttlMs;
  }

  open(approver: Approver): Session {
    this.#sweep();
    const session: Session = {
      id: randomBytes(32).toString("base64url"),
      approver,
      csrf: randomBytes(32).toString("base64url"),
      expires: Date.now() + this.#ttlMs,
    };
    this.#byId.set(session.id, session);
    return session;
  }

  /** The live session of this id, when its approver still exists. */
  async find(id: string | undefined): Promise<Session | undefined> {
    if (id === undefined || !SID.test(id)) return undefined;
    const session = this.#byId.get(id);
    if (session === undefined) return undefined;
    if (session.expires <= Date.now()) {
      this.#byId.delete(id);
      return undefined;
    }
    // A removed approver's sessions end with it.
    const still = (await this.#inbox.approvers.list()).some((a) => a.name === session.approver.name);
    if (!still) {
      this.#byId.delete(id);
      return undefined;
    }
    return session;
  }

  close(id: string): void {
    this.#byId.delete(id);
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, s] of this.#byId) if (s.expires <= now) this.#byId.delete(id);
  }
}

/** Constant-time comparison of a submitted CSRF token with the session's. @internal */
export function sameToken(expected: string, given: unknown): boolean {
  if (typeof given !== "string" || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}
