import type { AnnotationsMatch, KeyPath, SourceSpan } from "../document.js";

/** Maps a 1-based line and column of a text (the policies or the schema) to where that character is in its file. */
export type TextLocator = (line: number, column: number) => SourceSpan;

/** What {@link compileCedar} takes: Cedar policy text, an optional Cedar schema, and where they were written. */
export interface CompileCedarOptions {
  /** The Cedar policies (Cedar's own syntax, the text of a `.cedar` file or of the policy file's `cedar.policies`). */
  readonly policies: string;
  /** The file the policies were read from: every load error names it (with line and column). */
  readonly file: string;
  /**
   * Where the policy text sits inside `file` when it is not the whole file (a YAML block): maps a line and column
   * of `policies` to the file's. Left out: line 1, column 1 of `policies` is line 1, column 1 of `file`.
   */
  readonly locate?: TextLocator;
  /** The key path of inline policies in the policy document, for errors (`["cedar", "policies"]`). Default `[]`. */
  readonly path?: KeyPath;
  /** A Cedar schema (`.cedarschema` syntax, or its JSON form): the policies are validated against it at load. */
  readonly schema?: string;
  /** The file the schema was read from (default: `file`). */
  readonly schemaFile?: string;
  /** As `locate`, for `schema` inside `schemaFile`. */
  readonly locateSchema?: TextLocator;
  /** As `path`, for an inline schema (`["cedar", "schema"]`). */
  readonly schemaPath?: KeyPath;
}

/** One tool call, as the Cedar engine sees it. */
export interface CedarCall {
  /** The tool's name: the resource `Tool::"<tool>"`. */
  readonly tool: string;
  /** The arguments: the request's `context` (a record; see the docs for how values convert). */
  readonly args?: unknown;
  /** The agent's role: the principal `Agent::"<agent>"` when given. */
  readonly agent?: string | undefined;
  /** The agent's crew: the agent is `in Crew::"<crew>"`. */
  readonly crew?: string | undefined;
  /** Who called, when no agent is bound: the principal `Caller::"<caller>"`. */
  readonly caller?: string | undefined;
  /** The tool's tags: `resource.tags`, and the tool is `in Tag::"<tag>"` for each. */
  readonly tags?: readonly string[] | undefined;
  /** The tool's MCP annotations: `resource.destructive`, `resource.readOnly`, `resource.idempotent`, `resource.openWorld`. */
  readonly annotations?: AnnotationsMatch | undefined;
}

/**
 * What Cedar decided for one call: `deny` (a `forbid` applied, or evaluation failed: fail closed), `approve` (a
 * `permit` annotated `@requireApproval` applied), `allow` (a plain `permit` applied), `none` (no policy applied:
 * the policy file's default decides).
 */
export interface CedarDecision {
  readonly effect: "allow" | "deny" | "approve" | "none";
  /** The deciding policies, by their `@id("…")` annotation, else Cedar's id (`policy0`, `policy1`, … in file order). */
  readonly policies: readonly string[];
  /** The deciding policy's `@reason("…")`, or why evaluation failed closed. */
  readonly reason?: string;
}

/** One policy of the set, as loaded. */
export interface CedarPolicyInfo {
  /** `@id("…")`, else Cedar's id (`policy0`, … in file order). */
  readonly id: string;
  readonly effect: "permit" | "forbid";
  /** True for a `permit` annotated `@requireApproval` (bare or `("true")`). */
  readonly requireApproval: boolean;
  readonly reason?: string;
  /** Where the policy starts. */
  readonly at: SourceSpan;
}

/** A compiled Cedar policy set: parsed and validated once, decided per call. */
export interface CedarEngine {
  /** Decides one call. Never throws: any failure is a `deny` (fail closed) naming the policies involved. */
  decide(call: CedarCall): CedarDecision;
  /** Whether any policy can apply to calls of this tool (a policy unscoped on its resource covers every tool). */
  covers(tool: string): boolean;
  /** The policies, in file order. */
  readonly policies: readonly CedarPolicyInfo[];
}
