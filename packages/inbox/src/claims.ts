import type { ApprovalBinding } from "@toolware/core";
import type { InboxDecision, InboxRequest, InboxSigner } from "./contract.js";

// What a signature covers. The texts are arrays in JSON: no field can run into the next one.

/** The claims of a request: what the server promises the approver decides about. @internal */
export function requestClaims(
  r: Pick<InboxRequest, "id" | "binding" | "caller" | "policyVersion" | "deadline" | "editedFrom">,
): string {
  const b = r.binding;
  return JSON.stringify([
    "toolware-inbox-request-v1",
    r.id,
    b.toolName,
    b.callId,
    b.digest,
    r.caller,
    r.policyVersion,
    r.deadline,
    r.editedFrom ?? null,
  ]);
}

/** The claims of a decision: which request, which arguments, what was decided, by whom. @internal */
export function decisionClaims(r: Pick<InboxRequest, "id" | "binding">, d: Omit<InboxDecision, "signature">): string {
  return JSON.stringify([
    "toolware-inbox-decision-v1",
    r.id,
    r.binding.digest,
    d.outcome,
    [...d.approvers],
    d.reason ?? null,
    d.at,
    d.grantId ?? null,
    d.editedTo ?? null,
  ]);
}

/** Whether a request and its decision (if any) carry this server's signatures. @internal */
export function verifyRequest(signer: InboxSigner, r: InboxRequest): boolean {
  try {
    if (!signer.verify(requestClaims(r), r.signature)) return false;
    if (r.state === "pending") return r.decision === undefined;
    if (r.decision === undefined || r.decision.outcome !== r.state) return false;
    return signer.verify(decisionClaims(r, r.decision), r.decision.signature);
  } catch {
    return false;
  }
}

interface TokenClaims {
  readonly v: 1;
  readonly rid: string;
  readonly tool: string;
  readonly call: string;
  readonly dig: string;
}

/** `<claims in base64url>.<kid>.<signature>`: names the request and the call it was issued for. @internal */
export function resumeToken(signer: InboxSigner, rid: string, binding: ApprovalBinding): string {
  const claims: TokenClaims = { v: 1, rid, tool: binding.toolName, call: binding.callId, dig: binding.digest };
  const body = Buffer.from(JSON.stringify(claims), "utf8").toString("base64url");
  return `${body}.${signer.sign(`toolware-inbox-resume-v1.${body}`)}`;
}

/** The claims of a resume token this server signed, or undefined for anything else. @internal */
export function readResumeToken(
  signer: InboxSigner,
  token: unknown,
): { rid: string; binding: ApprovalBinding } | undefined {
  if (typeof token !== "string" || token.length > 4096) return undefined;
  const dot = token.indexOf(".");
  if (dot <= 0) return undefined;
  const body = token.slice(0, dot);
  if (!signer.verify(`toolware-inbox-resume-v1.${body}`, token.slice(dot + 1))) return undefined;
  try {
    const c = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as TokenClaims;
    if (
      c.v !== 1 ||
      typeof c.rid !== "string" ||
      typeof c.tool !== "string" ||
      typeof c.call !== "string" ||
      typeof c.dig !== "string"
    ) {
      return undefined;
    }
    return { rid: c.rid, binding: { toolName: c.tool, callId: c.call, digest: c.dig } };
  } catch {
    return undefined;
  }
}
