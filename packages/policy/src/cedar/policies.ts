import type { CedarWasm } from "./wasm.js";

type PolicyJson = Extract<ReturnType<CedarWasm["policyToJson"]>, { type: "success" }>["json"];
type EntityRef = { __entity: { type: string; id: string } } | { type: string; id: string };

/** The annotations the engine reads; any other is refused, so a misspelt `@requireAproval` cannot drop an approval. */
export const ANNOTATIONS = ["id", "reason", "requireApproval", "description"] as const;

/** The entity types the engine sends, by scope and operator: a scope naming any other can never apply to a call. */
const SCOPE_TYPES = {
  principal: {
    "==": ["Agent", "Caller", "Anonymous"],
    in: ["Agent", "Caller", "Anonymous", "Crew"],
    is: ["Agent", "Caller", "Anonymous"],
  },
  resource: { "==": ["Tool"], in: ["Tool", "Tag"], is: ["Tool"] },
} as const;

/** What the engine knows of one policy, read from Cedar's JSON form of it. */
export interface PolicyFacts {
  readonly effect: "permit" | "forbid";
  readonly annotations: Readonly<Record<string, string | null>>;
  /** The one tool the policy is scoped to, or `undefined` when its resource scope admits every tool. */
  readonly tool: string | undefined;
  /** The context attributes its conditions read, or `undefined` when it reads `context` as a whole. */
  readonly contextKeys: ReadonlySet<string> | undefined;
}

function entityOf(ref: EntityRef): { type: string; id: string } {
  return "__entity" in ref ? ref.__entity : ref;
}

/** Checks a principal or resource scope names types the engine sends; returns the entity it pins, if any. */
function checkScope(
  which: "principal" | "resource",
  scope: PolicyJson["principal"],
): { type: string; id: string } | undefined {
  if (scope.op === "All") return undefined;
  const allowed: readonly string[] = SCOPE_TYPES[which][scope.op];
  let type: string;
  let pinned: { type: string; id: string } | undefined;
  if (scope.op === "is") {
    type = scope.entity_type;
    if (scope.in !== undefined && "entity" in scope.in)
      pinned = checkScope(which, { op: "in", entity: scope.in.entity });
  } else {
    if (!("entity" in scope)) throw new Error("templates (`?principal`, `?resource`) are not supported");
    pinned = entityOf(scope.entity as EntityRef);
    type = pinned.type;
  }
  if (!allowed.includes(type)) {
    const sends = which === "principal" ? "Agent::, Caller:: or Anonymous:: (in Crew::)" : "Tool:: (in Tag::)";
    throw new Error(`\`${which} ${scope.op} ${type}\` can never apply to a tool call: the ${which} is always ${sends}`);
  }
  return pinned;
}

function checkAction(scope: PolicyJson["action"]): void {
  if (scope.op === "All") return;
  let refs: readonly EntityRef[] = [];
  if ("entities" in scope) refs = scope.entities as EntityRef[];
  else if ("entity" in scope) refs = [scope.entity as EntityRef];
  const call = refs.some((ref) => {
    const entity = entityOf(ref);
    return entity.type === "Action" && entity.id === "call";
  });
  if (!call) throw new Error('its action scope can never apply to a tool call: every call is `Action::"call"`');
}

/** Collects the attributes read as `context.x` / `context has x`; any other use of `context` means all of it. */
function readContext(node: unknown, keys: Set<string>): boolean {
  if (node === null || typeof node !== "object") return true;
  if (Array.isArray(node)) return node.every((n) => readContext(n, keys));
  const record = node as Record<string, unknown>;
  if ("Value" in record) return true;
  if (record.Var === "context") return false;
  for (const op of [".", "has"]) {
    const access = record[op] as { left?: { Var?: unknown }; attr?: string | string[] } | undefined;
    if (access?.left?.Var === "context") {
      keys.add(Array.isArray(access.attr) ? (access.attr[0] as string) : (access.attr as string));
      return true;
    }
  }
  return Object.values(record).every((n) => readContext(n, keys));
}

/** Reads one policy's facts; throws an `Error` whose message says what is wrong with it. */
export function policyFacts(json: PolicyJson): PolicyFacts {
  checkScope("principal", json.principal);
  checkAction(json.action);
  const pinned = checkScope("resource", json.resource);
  const annotations = json.annotations ?? {};
  const keys = new Set<string>();
  const partial = json.conditions.every((c) => readContext(c.body, keys));
  return {
    effect: json.effect,
    annotations,
    tool: pinned?.type === "Tool" ? pinned.id : undefined,
    contextKeys: partial ? keys : undefined,
  };
}
