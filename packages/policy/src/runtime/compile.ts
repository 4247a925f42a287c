import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type BeforeToolCallHookType, messageOf, type Pack } from "@toolware/core";
import type { ApprovalDecision } from "@toolware/packs/approval";
import { compileCedar } from "../cedar/index.js";
import type { KeyPath, LoadedDocument, PolicyMode, RuleDoc } from "../document.js";
import { approvalGate } from "./approval.js";
import { type CompiledCondition, compileCondition } from "./cel.js";
import { type CedarPart, PolicyDecider, type RuntimeRule } from "./decide.js";
import { compileError } from "./errors.js";
import { compileMatch } from "./match.js";
import { connectUrl, type LoadPolicyOptions, type PolicyStoresOption, storesOf } from "./options.js";
import { buildPacks, urlsNamed } from "./packs.js";

/** One pack a rule attaches. @internal */
export interface Attachment {
  readonly rule: number;
  readonly ruleName: string;
  readonly name: string;
  readonly pack: Pack;
  /** The rule's packs as written: a reload keeps the pack (and its state) when this is unchanged. */
  readonly fingerprint: string;
}

/** A policy file compiled once: what the hooks of one version run. @internal */
export interface CompiledPolicy {
  readonly version: number;
  readonly loaded: LoadedDocument;
  readonly decider: PolicyDecider;
  /** Approval gates by rule index; -2 is Cedar's (the file's `approval`). */
  readonly gates: ReadonlyMap<number, BeforeToolCallHookType>;
  readonly attachments: readonly Attachment[];
  /** Each rule as written, by name: what a reload compares. */
  readonly fingerprints: ReadonlyMap<string, string>;
}

/** What compiling needs besides the document. @internal */
export interface CompileContext {
  readonly version: number;
  readonly options: LoadPolicyOptions;
  readonly onApproval: (rule: string, decision: ApprovalDecision) => void;
  /** Packs of the previous version, to keep those whose rule did not change. */
  readonly previous?: CompiledPolicy | undefined;
}

function condition(loaded: LoadedDocument, rule: RuleDoc, i: number): CompiledCondition | undefined {
  const when = rule.match?.when;
  if (when === undefined) return undefined;
  try {
    return compileCondition(when);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw compileError(
      loaded,
      ["rules", i, "match", "when"],
      `rule "${rule.name}": its CEL condition does not compile: ${message}`,
    );
  }
}

async function cedarOf(loaded: LoadedDocument): Promise<CedarPart | undefined> {
  const doc = loaded.document.cedar;
  if (doc === undefined) return undefined;
  const base = loaded.file === "<inline>" ? process.cwd() : dirname(loaded.file);
  const read = async (name: string, key: "file" | "schemaFile") => {
    try {
      return await readFile(resolve(base, name), "utf8");
    } catch (error) {
      throw compileError(
        loaded,
        ["cedar", key],
        `cannot read ${name}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  const policies = doc.policies ?? (doc.file === undefined ? "" : await read(doc.file, "file"));
  const schema = doc.schema ?? (doc.schemaFile === undefined ? undefined : await read(doc.schemaFile, "schemaFile"));
  const inline = doc.policies !== undefined;
  const at = inline ? loaded.locate(["cedar", "policies"]) : undefined;
  return compileCedar({
    policies,
    file: inline || doc.file === undefined ? loaded.file : resolve(base, doc.file),
    ...(at === undefined
      ? {}
      : { locate: (line: number, column: number) => ({ file: at.file, line: at.line + line, column }) }),
    ...(schema === undefined ? {} : { schema }),
    ...(doc.schemaFile === undefined ? {} : { schemaFile: resolve(base, doc.schemaFile) }),
  });
}

// Opens (once per URL, see connectUrl) every Redis URL the rules' packs use, before the packs are made.
async function connectAll(
  loaded: LoadedDocument,
  options: LoadPolicyOptions,
): Promise<ReadonlyMap<string, PolicyStoresOption>> {
  const named = new Map<string, KeyPath>();
  loaded.document.rules.forEach((rule, i) => {
    if (rule.packs === undefined) return;
    for (const [url, at] of urlsNamed(rule.packs, loaded.document.stores?.default, ["rules", i, "packs"])) {
      if (!named.has(url)) named.set(url, at);
    }
  });
  const out = new Map<string, PolicyStoresOption>();
  for (const [url, at] of named) {
    try {
      const stores = await connectUrl(options, url);
      if (stores !== undefined) out.set(url, stores);
    } catch (error) {
      throw compileError(loaded, at, `connect.redis("${url}") failed: ${messageOf(error)}`, "TOOLWARE_POLICY_STORE");
    }
  }
  return out;
}

/** Compiles a checked document: conditions, packs, approval gates and Cedar, each once. @internal */
export async function compilePolicy(loaded: LoadedDocument, c: CompileContext): Promise<CompiledPolicy> {
  const doc = loaded.document;
  const modeOf = (mode: PolicyMode | undefined): boolean =>
    (c.options.mode ?? mode ?? doc.mode ?? "enforce") === "shadow";
  const stores = {
    ...storesOf(c.options.stores),
    urls: await connectAll(loaded, c.options),
    auditContext: c.options.auditContext,
    caller: c.options.caller,
    upstream: c.options.upstream,
  };
  const rules: RuntimeRule[] = [];
  const gates = new Map<number, BeforeToolCallHookType>();
  const attachments: Attachment[] = [];
  const fingerprints = new Map<string, string>();
  const kept = new Map<string, Attachment[]>();
  for (const a of c.previous?.attachments ?? []) kept.set(a.ruleName, [...(kept.get(a.ruleName) ?? []), a]);
  doc.rules.forEach((rule, i) => {
    rules.push({
      index: i,
      name: rule.name,
      decide: rule.decide,
      reason: rule.reason,
      shadow: modeOf(rule.mode),
      match: compileMatch(rule.match, condition(loaded, rule, i)),
    });
    fingerprints.set(rule.name, JSON.stringify(rule));
    if (rule.decide === "approve") {
      gates.set(
        i,
        approvalGate({
          rule: rule.name,
          doc: { ...doc.approval, ...rule.approval },
          humanInput: c.options.humanInput,
          onDecision: c.onApproval,
        }),
      );
    }
    if (rule.packs === undefined) return;
    const fingerprint = JSON.stringify(rule.packs);
    const before = kept.get(rule.name);
    if (before !== undefined && before[0]?.fingerprint === fingerprint) {
      for (const a of before) attachments.push({ ...a, rule: i });
      return;
    }
    for (const { name, pack } of buildPacks(loaded, i, rule.packs, stores, doc.stores?.default)) {
      attachments.push({ rule: i, ruleName: rule.name, name, pack, fingerprint });
    }
  });
  const cedar = await cedarOf(loaded);
  if (cedar !== undefined) {
    gates.set(
      -2,
      approvalGate({
        rule: "cedar",
        doc: doc.approval ?? {},
        humanInput: c.options.humanInput,
        onDecision: c.onApproval,
      }),
    );
  }
  const fallback = { effect: doc.default, reason: doc.defaultReason, shadow: modeOf(undefined) };
  const decider = new PolicyDecider(c.version, rules, fallback, cedar);
  const compiled: CompiledPolicy = { version: c.version, loaded, decider, gates, attachments, fingerprints };
  decider.owner = compiled;
  return compiled;
}
