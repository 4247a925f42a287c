import type { PolicyFacts } from "./policies.js";
import type { CedarCall, CedarDecision, CedarEngine, CedarPolicyInfo } from "./types.js";
import { type CedarValue, contextOf, Refused } from "./values.js";
import type { CedarWasm } from "./wasm.js";

type EntityJson = Parameters<CedarWasm["statefulIsAuthorized"]>[0]["entities"][number];

const ACTION = Object.freeze({ type: "Action", id: "call" });
const ANONYMOUS = Object.freeze({ type: "Anonymous", id: "anonymous" });
const MAX_DETAIL = 200;

/** One loaded policy: what `policies` lists, and what `decide` needs to name it. */
export interface LoadedPolicy extends CedarPolicyInfo {
  readonly facts: PolicyFacts;
}

function clip(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}

/** `principal`, `resource` and the entities that describe them, for one call. */
function requestOf(call: CedarCall): {
  principal: { type: string; id: string };
  resource: { type: string; id: string };
  entities: EntityJson[];
} {
  if (typeof call.tool !== "string") throw new Refused("the call names no tool");
  const entities: EntityJson[] = [];
  let principal: { type: string; id: string } = ANONYMOUS;
  if (typeof call.agent === "string") {
    principal = { type: "Agent", id: call.agent };
    const parents = typeof call.crew === "string" ? [{ type: "Crew", id: call.crew }] : [];
    entities.push({ uid: principal, attrs: {}, parents });
  } else if (typeof call.caller === "string") principal = { type: "Caller", id: call.caller };
  const tags = call.tags ?? [];
  for (const tag of tags) if (typeof tag !== "string") throw new Refused("the tool's tags are not all strings");
  const a = call.annotations ?? {};
  const hint = (value: unknown, otherwise: boolean): boolean => (typeof value === "boolean" ? value : otherwise);
  const readOnly = hint(a.readOnlyHint, false);
  const resource = { type: "Tool", id: call.tool };
  entities.push({
    uid: resource,
    // MCP's defaults for a tool that says nothing: it may be destructive and may reach the open world.
    attrs: {
      name: call.tool,
      tags: [...tags],
      readOnly,
      destructive: hint(a.destructiveHint, !readOnly),
      idempotent: hint(a.idempotentHint, false),
      openWorld: hint(a.openWorldHint, true),
    },
    parents: tags.map((id) => ({ type: "Tag", id })),
  });
  return { principal, resource, entities };
}

/** The engine over a pre-parsed policy set (`setId`), its policies in file order (Cedar's `policyN` is index N). */
export function createEngine(
  cedar: CedarWasm,
  setId: string,
  policies: readonly LoadedPolicy[],
  contextKeys: ReadonlySet<string> | undefined,
): CedarEngine {
  const everyTool = policies.some((p) => p.facts.tool === undefined);
  const tools = new Set(policies.map((p) => p.facts.tool));

  // Cedar's ids are `policy<index>`: sorting by index lists the deciding policies in file order.
  function named(ids: readonly string[]): LoadedPolicy[] {
    const indexes = ids.map((id) => Number(id.slice(6))).sort((a, b) => a - b);
    return indexes.map((i) => policies[i] as LoadedPolicy);
  }
  function failClosed(why: string, involved: readonly LoadedPolicy[]): CedarDecision {
    const ids = involved.map((p) => p.id);
    const which = ids.length === 0 ? "" : ` (policies ${ids.join(", ")})`;
    return { effect: "deny", policies: ids, reason: `Cedar could not decide this call${which}: ${clip(why)}` };
  }
  function decided(effect: CedarDecision["effect"], deciding: readonly LoadedPolicy[]): CedarDecision {
    const ids = deciding.map((p) => p.id);
    const reason = deciding.find((p) => p.reason !== undefined)?.reason;
    return reason === undefined ? { effect, policies: ids } : { effect, policies: ids, reason };
  }

  function decide(call: CedarCall): CedarDecision {
    let answer: ReturnType<CedarWasm["statefulIsAuthorized"]>;
    try {
      const { principal, resource, entities } = requestOf(call);
      const context = contextOf(call.args, contextKeys) as Record<string, CedarValue>;
      answer = cedar.statefulIsAuthorized({
        principal,
        action: ACTION,
        resource,
        context,
        entities,
        preparsedPolicySetId: setId,
      });
    } catch (error) {
      return failClosed(error instanceof Error ? error.message : String(error), []);
    }
    if (answer.type === "failure") return failClosed(answer.errors.map((e) => e.message).join("; "), []);
    const { decision, diagnostics } = answer.response;
    const reasons = named(diagnostics.reason);
    if (diagnostics.errors.length > 0) {
      const errored = named(diagnostics.errors.map((e) => e.policyId));
      const forbids = reasons.filter((p) => p.effect === "forbid");
      return failClosed(diagnostics.errors.map((e) => e.error.message).join("; "), [...forbids, ...errored]);
    }
    if (decision === "deny") return reasons.length === 0 ? { effect: "none", policies: [] } : decided("deny", reasons);
    const approvals = reasons.filter((p) => p.requireApproval);
    return approvals.length > 0 ? decided("approve", approvals) : decided("allow", reasons);
  }

  return {
    decide,
    covers: (tool) => everyTool || tools.has(tool),
    policies: policies.map(({ facts: _, ...info }) => Object.freeze(info)),
  };
}
