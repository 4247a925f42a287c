import { definePack, type Pack, type ToolCallHookContext, ToolwareTypeError } from "@toolware/core";
import type { LoadedDocument, PolicyDocument } from "../document.js";
import { checkPolicyObject, readPolicyFile } from "../load/index.js";
import { compilePolicy } from "./compile.js";
import type { PolicyCallDecision } from "./decide.js";
import type { PolicyCounters, PolicyEvent } from "./events.js";
import { DEFAULT_PRIORITY, staticHooks } from "./hooks.js";
import { checkOptions, type LoadPolicyOptions } from "./options.js";
import { type ExplainCall, type PolicyExplanation, PolicyRuntime } from "./runtime.js";

/** What a policy pack offers besides its hooks. */
export interface PolicyApi {
  /** The file's `name`, if it has one. */
  readonly policyName: string | undefined;
  /** Which compiled policy is in force (1, then one more per successful reload). */
  version(): number;
  /** Per-rule counters since the pack was made: matched, denied, asked, approved, shadow-denied, shadow-asked. */
  counters(): PolicyCounters;
  /** Decides a call described as data, without running anything or counting it: which rules match, and why. */
  explain(call: ExplainCall): PolicyExplanation;
  /** The decision the policy made for a call in progress (hooks and after-hooks can read it). */
  decisionOf(ctx: ToolCallHookContext): PolicyCallDecision | undefined;
  /** Listens to decisions, shadow decisions, reloads and reload failures; returns the unregister function. */
  on(listener: (event: PolicyEvent) => void): () => boolean;
}

/** The pack {@link loadPolicy} returns. */
export type PolicyPack = Pack<PolicyApi>;

/** A policy given in code: a file path, a parsed document, or a document object to check. @internal */
export async function loadDocument(source: string | PolicyDocument | LoadedDocument): Promise<LoadedDocument> {
  if (typeof source === "string") return readPolicyFile(source);
  if (source !== null && typeof source === "object" && "document" in source && typeof source.locate === "function") {
    return source;
  }
  if (source === null || typeof source !== "object") {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "loadPolicy() takes a file path or a policy object");
  }
  return checkPolicyObject(source);
}

/** The API every policy pack shares (the static and the watched one). @internal */
export function policyApi(rt: PolicyRuntime): PolicyApi {
  return {
    policyName: rt.current.loaded.document.name,
    version: () => rt.current.version,
    counters: () => rt.counters.snapshot(),
    explain: (call) => rt.explain(call),
    decisionOf: (ctx) => ctx.state.policy,
    on: (listener) => {
      if (typeof listener !== "function") {
        throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "policy.on() takes a listener function");
      }
      return rt.events.on(listener);
    },
  };
}

/**
 * Loads a policy (a YAML or JSON file, or an object) and compiles it once into a pack: the rules' decisions
 * (deny beats approve beats allow; the file's default otherwise), their CEL conditions, Cedar, and the packs they
 * attach. Register it like any pack, on any adapter's `ToolHooks`.
 *
 * @example
 * ```ts
 * const hooks = new ToolHooks();
 * const policy = await loadPolicy("toolware.policy.yaml", { caller: (ctx) => ctx.framework?.name });
 * hooks.use(policy);
 * policy.counters().rules["juniors-cannot-delete"]?.denied;
 * ```
 */
export async function loadPolicy(
  source: string | PolicyDocument | LoadedDocument,
  options?: LoadPolicyOptions,
): Promise<PolicyPack> {
  const checked = checkOptions(options);
  const loaded = await loadDocument(source);
  let rt: PolicyRuntime | undefined;
  const onApproval: PolicyRuntime["onApproval"] = (rule, d) => rt?.onApproval(rule, d);
  const compiled = await compilePolicy(loaded, { version: 1, options: checked, onApproval });
  rt = new PolicyRuntime(compiled, checked);
  return definePack({
    name: "policy",
    stateful: true,
    hooks: staticHooks(rt, compiled, checked.priority ?? DEFAULT_PRIORITY),
    ...policyApi(rt),
  });
}
