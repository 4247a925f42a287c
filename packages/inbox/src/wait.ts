import { approvalAnswers } from "@toolware/core";
import { readResumeToken, resumeToken, verifyRequest } from "./claims.js";
import type { InboxRequest, ResumeCall, Resumed, Settled, WaitOptions } from "./contract.js";
import { type Core, expireIfDue, load, record, requestData } from "./core.js";
import { checkOptions, inboxError, invalidOption } from "./errors.js";
import { isInboxId } from "./ids.js";

const MAX_EDITS = 32;

/**
 * The request that carries the decision: follows "edited" links to the last request, expiring any
 * past its deadline. Every request on the way must carry this server's signatures. @internal
 */
export async function current(core: Core, id: string): Promise<InboxRequest> {
  let r = await load(core, id);
  for (let hops = 0; ; hops++) {
    if (!verifyRequest(core.signer, r)) {
      throw inboxError(
        "TOOLWARE_INBOX_FORGED",
        `the request ${r.id} or its decision does not carry this server's signature`,
      );
    }
    r = await expireIfDue(core, r);
    if (r.state !== "edited") return r;
    const to = r.decision?.editedTo;
    if (to === undefined || hops >= MAX_EDITS)
      throw inboxError("TOOLWARE_INBOX_FORGED", `the edited request ${r.id} leads nowhere`);
    const next = await load(core, to);
    if (
      next.editedFrom !== r.id ||
      next.binding.toolName !== r.binding.toolName ||
      next.binding.callId !== r.binding.callId
    ) {
      throw inboxError("TOOLWARE_INBOX_FORGED", `the request ${to} is not the edit of ${r.id}`);
    }
    r = next;
  }
}

function settledOf(r: InboxRequest): Settled | undefined {
  if (r.state === "pending" || r.state === "edited") return undefined;
  return { outcome: r.state, request: r, input: r.input, reason: r.decision?.reason };
}

/** Waits for the decision: woken at once by this process, by polling for others; the deadline denies. @internal */
export function wait(core: Core, id: string, options: WaitOptions = {}): Promise<Settled> {
  const o = checkOptions(options, ["signal", "onHeartbeat", "heartbeatMs"], "wait()") as WaitOptions;
  const heartbeatMs = o.heartbeatMs ?? 15_000;
  if (!(typeof heartbeatMs === "number" && heartbeatMs >= 10 && heartbeatMs <= 2_147_483_647)) {
    throw invalidOption("`heartbeatMs` must be a number of milliseconds from 10 to 2147483647");
  }
  if (!isInboxId(id)) return Promise.reject(inboxError("TOOLWARE_INBOX_NOT_FOUND", "no such request (malformed id)"));
  const signal = o.signal;
  return new Promise<Settled>((resolve, reject) => {
    let done = false;
    let watching = id;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let checking = false;
    let again = false;
    const wake = (): void => void check();
    const watch = (next: string): void => {
      core.wakers.get(watching)?.delete(wake);
      watching = next;
      const set = core.wakers.get(next) ?? new Set();
      set.add(wake);
      core.wakers.set(next, set);
    };
    const beat = setInterval(() => {
      void core.store.get(watching).then(
        (r) => r !== undefined && o.onHeartbeat?.(r),
        () => {},
      );
    }, heartbeatMs);
    const finish = (error: unknown, value?: Settled): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(beat);
      signal?.removeEventListener("abort", onAbort);
      const set = core.wakers.get(watching);
      set?.delete(wake);
      if (set?.size === 0) core.wakers.delete(watching);
      if (value !== undefined) resolve(value);
      else reject(error);
    };
    const onAbort = (): void => finish(signal?.reason ?? new Error("aborted"));
    async function check(): Promise<void> {
      if (done) return;
      // One look at a time; a wake during a look asks for another.
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      clearTimeout(timer);
      try {
        do {
          again = false;
          const r = await current(core, id);
          if (r.id !== watching) watch(r.id);
          const settled = settledOf(r);
          if (settled !== undefined) return finish(undefined, settled);
        } while (again && !done);
        if (done) return;
        const untilDeadline = Math.max(0, (await load(core, watching)).deadline - core.now());
        timer = setTimeout(wake, Math.min(core.pollMs, untilDeadline + 1));
      } catch (error) {
        finish(error);
      } finally {
        checking = false;
      }
    }
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    watch(id);
    void check();
  });
}

/** Applies the decision to the call that comes again: an approval runs the tool once. @internal */
export async function resume(core: Core, token: string, call: ResumeCall): Promise<Resumed> {
  const claims = readResumeToken(core.signer, token);
  if (claims === undefined) throw inboxError("TOOLWARE_INBOX_FORGED", "the resume token was not issued by this inbox");
  const c = checkOptions(call, ["toolName", "callId", "input"], "resume()") as unknown as ResumeCall;
  if (!approvalAnswers(claims.binding, c.toolName, c.callId, c.input)) {
    throw inboxError(
      "TOOLWARE_INBOX_ARGUMENTS_CHANGED",
      "the resume token was issued for another call (tool, call id or arguments differ)",
    );
  }
  const r = await current(core, claims.rid);
  if (r.state === "pending")
    return { kind: "pending", request: r, url: `${core.baseUrl}/requests/${r.id}`, resumeToken: token };
  if (r.state === "denied") return { kind: "denied", request: r, reason: r.decision?.reason };
  if (r.state === "expired") return { kind: "expired", request: r };
  return (await take(core, r, c.callId))
    ? { kind: "approved", request: r, input: r.input }
    : { kind: "consumed", request: r };
}

/** Takes the approval for its one run: true the first time only, in every process sharing the store. @internal */
export async function take(core: Core, r: InboxRequest, actor: string): Promise<boolean> {
  const first = await core.store.consume(`apply:${r.id}`);
  if (first) await record(core, "consume", actor, requestData(r));
  return first;
}

/** A fresh resume token for a request. @internal */
export const tokenFor = (core: Core, r: InboxRequest): string => resumeToken(core.signer, r.id, r.binding);
