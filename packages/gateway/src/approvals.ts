import { createHash } from "node:crypto";
import {
  digestArguments,
  type HumanInputProvider,
  type HumanInputRequest,
  HumanInputUnavailableError,
  messageOf,
  ToolwareError,
  ToolwareTypeError,
} from "@toolware/core";
// Types only: a gateway without the inbox never loads @toolware/inbox (an optional peer).
import type { Inbox, Submitted } from "@toolware/inbox";
import { gatewayElicitation, runningCall } from "./context.js";
import type { GatewayCallInfo } from "./contract.js";
import { checkKeys } from "./options.js";

/** Where one approval is asked. */
export type ApprovalChannel = "elicitation" | "inbox";

/** What `via` sees of the call to be approved. */
export interface GatewayApprovalCall extends GatewayCallInfo {
  /** The upstream's own name for the tool (the name the policy matches). */
  readonly toolName: string;
  /** Whether the client declared elicitation. */
  readonly canElicit: boolean;
}

/** Options of {@link gatewayApprovals}. */
export interface GatewayApprovalsOptions {
  /** The inbox (`createInbox`), on the same store and signing keys as the inbox server approvers use. */
  readonly inbox: Inbox;
  /**
   * How long a call waits for the inbox's decision before it answers "awaits approval" (ms). Keep it under the
   * clients' request timeout (the MCP SDK's default is 60 s). Default 45 000; 0 answers at once.
   */
  readonly waitMs?: number;
  /**
   * `"auto"` (default): elicitation when the client declared it, else the inbox. `"inbox"`: always the inbox. A
   * function picks per call (a tool, an upstream, a client that must go to named approvers).
   */
  readonly via?: "auto" | "inbox" | ((call: GatewayApprovalCall) => ApprovalChannel);
  /**
   * Who asks, as the inbox binds it: an approval is only used by the same identity. Default: the client's
   * `clientInfo` name and its session (`<name>@<session>`).
   */
  readonly identity?: (call: GatewayCallInfo) => string;
  /** The inbox request's deadline (ms). Default: the inbox's own (5 minutes). */
  readonly timeoutMs?: number;
  /** Only an approver with this role may decide. */
  readonly requireRole?: string;
  /** How long an elicitation may take (ms). Default 180 000. */
  readonly elicitationTimeoutMs?: number;
}

const KEYS = ["inbox", "waitMs", "via", "identity", "timeoutMs", "requireRole", "elicitationTimeoutMs"];
// Denials are shown once each, then the same call asks anew; the memory is per process and bounded.
const MAX_SHOWN = 10_000;
// Each decided generation of a call moves the next one on; this bounds a scan over a store full of them.
const MAX_GENERATIONS = 100_000;

const PENDING = "TOOLWARE_GATEWAY_APPROVAL_PENDING";
const invalid = (message: string) => new ToolwareTypeError("TOOLWARE_INVALID_OPTION", message);

function whole(value: unknown, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > 2_147_483_647) {
    throw invalid(`gatewayApprovals(): \`${name}\` must be a whole number of milliseconds from ${min}`);
  }
  return value;
}

function checkOptions(
  options: GatewayApprovalsOptions,
): Required<Omit<GatewayApprovalsOptions, "requireRole" | "timeoutMs">> & GatewayApprovalsOptions {
  if (options === null || typeof options !== "object") throw invalid("gatewayApprovals() needs an options object");
  checkKeys(options, KEYS, "gatewayApprovals()");
  const inbox = options.inbox as Partial<Inbox> | undefined;
  if (
    inbox === null ||
    typeof inbox !== "object" ||
    typeof inbox.submit !== "function" ||
    typeof inbox.resume !== "function"
  )
    throw invalid("gatewayApprovals() needs `inbox` (from @toolware/inbox's createInbox)");
  const via = options.via ?? "auto";
  if (via !== "auto" && via !== "inbox" && typeof via !== "function")
    throw invalid('gatewayApprovals(): `via` must be "auto", "inbox" or a function');
  if (options.identity !== undefined && typeof options.identity !== "function")
    throw invalid("gatewayApprovals(): `identity` must be a function");
  if (options.requireRole !== undefined && (typeof options.requireRole !== "string" || options.requireRole === ""))
    throw invalid("gatewayApprovals(): `requireRole` must be a non-empty string");
  whole(options.timeoutMs, "timeoutMs", 0, 1);
  return {
    ...options,
    waitMs: whole(options.waitMs, "waitMs", 45_000, 0),
    via,
    identity: options.identity ?? ((c) => `${c.client?.name ?? "unnamed client"}@${c.session}`),
    elicitationTimeoutMs: whole(options.elicitationTimeoutMs, "elicitationTimeoutMs", 180_000, 1),
  };
}

const short = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what the inbox refuses
const printable = (text: string, max: number) => short(text.replace(/[\u0000-\u001f\u007f]/g, "?"), max) || "?";

/** The call's name in the inbox: one per tool, arguments and identity, then a generation per decision used. */
function callIdOf(identity: string, call: GatewayCallInfo, toolName: string, digest: string, generation: number) {
  const hash = createHash("sha256");
  for (const part of [identity, call.upstream, toolName, call.exposedName, digest]) hash.update(`${part}\u0000`);
  return `gw-${hash.digest("base64url").slice(0, 32)}-${generation}`;
}

/** Whether the arguments the inbox binds are the ones the approval is asked for (a hook may have rewritten them). */
function sameArguments(request: HumanInputRequest, input: unknown, digest: string): boolean {
  const binding = request.binding;
  return binding === undefined || (binding.digest === digest && digestArguments(input) === digest);
}

/**
 * A human-input provider for the gateway's approvals: it asks the client through MCP elicitation when the client
 * declared it, otherwise (or as `via` says) the inbox. A call the inbox has not decided within `waitMs` ends with
 * "awaits approval", the request's id and URL; the same call made again (same tool, arguments and client identity)
 * gets the decision once: an approval runs it once, a rejection refuses it with the reason, and the next identical
 * call asks anew. Only a decision the inbox signed for this call approves.
 *
 * @example
 * ```ts
 * const inbox = createInbox({ store: sqliteInboxStore({ file: "inbox.db" }), signer: signerFromEnv() });
 * const hooks = new ToolHooks({ humanInput: gatewayApprovals({ inbox, waitMs: 30_000 }) });
 * ```
 */
export function gatewayApprovals(options: GatewayApprovalsOptions): HumanInputProvider {
  const o = checkOptions(options);
  const inbox = o.inbox;
  const elicit = gatewayElicitation({ timeoutMs: o.elicitationTimeoutMs });
  const shown = new Set<string>();
  const generations = new Map<string, number>();

  function channelOf(call: GatewayApprovalCall): ApprovalChannel {
    if (o.via === "inbox") return "inbox";
    if (o.via === "auto") return call.canElicit ? "elicitation" : "inbox";
    const picked = o.via(call);
    if (picked !== "elicitation" && picked !== "inbox")
      throw new HumanInputUnavailableError(`\`via\` answered ${JSON.stringify(String(picked)).slice(0, 60)}`);
    return picked;
  }

  function markShown(id: string): void {
    if (shown.size >= MAX_SHOWN) shown.delete(shown.values().next().value as string);
    shown.add(id);
  }

  /** Settles one generation: an answer, "pending", or "next" when its decision was used already. */
  async function settle(s: Submitted, call: { toolName: string; callId: string; input: unknown }, signal: AbortSignal) {
    if (s.request.state === "pending" && o.waitMs > 0) {
      const bounded = AbortSignal.any([signal, AbortSignal.timeout(o.waitMs)]);
      try {
        await inbox.wait(s.request.id, { signal: bounded });
      } catch (error) {
        if (signal.aborted) throw error;
        // The wait ran out: the call says where it waits.
      }
    }
    const resumed = await inbox.resume(s.resumeToken, call);
    switch (resumed.kind) {
      case "pending":
        return { kind: "pending" as const, id: resumed.request.id, url: resumed.url };
      case "consumed":
        return { kind: "next" as const };
      case "approved":
        // An edit approves other arguments than the call carries: the gateway cannot hand them on, so it says no.
        if (resumed.request.binding.digest !== digestArguments(call.input))
          return {
            kind: "deny" as const,
            reason: "an approver edited the arguments in the inbox, and an edit does not carry through the gateway",
          };
        return { kind: "yes" as const };
      default: {
        if (shown.has(resumed.request.id)) return { kind: "next" as const };
        markShown(resumed.request.id);
        const why =
          resumed.kind === "denied"
            ? (resumed.reason ?? "an approver rejected it")
            : "nobody decided before the deadline";
        return { kind: "deny" as const, reason: why };
      }
    }
  }

  async function viaInbox(request: HumanInputRequest, call: NonNullable<ReturnType<typeof runningCall>>) {
    const info: GatewayCallInfo = {
      session: call.session,
      upstream: call.upstream,
      exposedName: call.exposedName,
      client: call.client,
    };
    const identity = o.identity(info);
    if (typeof identity !== "string" || identity === "")
      throw new HumanInputUnavailableError("`identity` gave no identity");
    const input = call.input ?? {};
    const digest = digestArguments(input);
    if (!sameArguments(request, input, digest))
      throw new HumanInputUnavailableError(
        "a hook changed the arguments before the approval: the inbox cannot bind them",
      );
    const base = callIdOf(identity, info, request.toolName, digest, 0).slice(0, -2);
    for (let n = generations.get(base) ?? 0; n < MAX_GENERATIONS; n++) {
      const callId = `${base}-${n}`;
      const submitted = await inbox.submit({
        toolName: request.toolName,
        callId,
        input,
        caller: printable(call.client?.name ?? "mcp client", 200),
        prompt: printable(request.prompt, 20_000),
        labels: {
          upstream: printable(call.upstream, 500),
          tool: printable(call.exposedName, 500),
          identity: printable(identity, 500),
        },
        ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
        ...(o.requireRole === undefined ? {} : { requireRole: o.requireRole }),
      });
      const settled = await settle(submitted, { toolName: request.toolName, callId, input }, request.signal);
      if (settled.kind === "next") continue;
      generations.set(base, settled.kind === "pending" ? n : n + 1);
      if (generations.size > MAX_SHOWN) generations.delete(generations.keys().next().value as string);
      if (settled.kind === "yes") return "yes";
      if (settled.kind === "deny")
        // Prefixed, so no reason an approver types can read as a yes.
        return `rejected in the inbox: ${settled.reason}`;
      throw new ToolwareError(
        PENDING,
        `${call.exposedName} awaits approval in the inbox (request ${settled.id}: ${settled.url}); call it again with the same arguments once an approver has decided`,
      );
    }
    throw new HumanInputUnavailableError("too many decided requests for this call");
  }

  return async function gatewayApprove(request) {
    const call = runningCall();
    if (call === undefined) return elicit(request); // says "not a call made through the gateway"
    const route: GatewayApprovalCall = {
      session: call.session,
      upstream: call.upstream,
      exposedName: call.exposedName,
      client: call.client,
      toolName: request.toolName,
      canElicit: call.elicit !== undefined,
    };
    if (channelOf(route) === "elicitation") return elicit(request);
    try {
      return await viaInbox(request, call);
    } catch (error) {
      if (error instanceof HumanInputUnavailableError || (error instanceof ToolwareError && error.code === PENDING))
        throw error;
      throw new ToolwareError("TOOLWARE_GATEWAY_INBOX", `the inbox refused the call: ${messageOf(error)}`, {
        cause: error,
      });
    }
  };
}
