import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import { ToolwareTypeError } from "@toolware/core";

/** Tags a guarded client or server gives a tool from its MCP annotations. */
export const ANNOTATION_TAGS = Object.freeze({
  readOnlyHint: "read-only",
  idempotentHint: "idempotent",
  openWorldHint: "open-world",
} as const);

/** What the app itself says about a server's tool: the floor that annotations cannot lower. */
export interface AppToolInfo {
  /** True keeps the tool destructive whatever the server says. */
  destructive?: boolean;
  tags?: readonly string[];
}

/** The metadata guards match on. @internal */
export interface ToolMetadata {
  readonly description: string | undefined;
  readonly destructive: boolean;
  readonly tags: readonly string[];
}

/** Checks the app's `tools` option once, at guard time. @internal */
export function checkAppTools(tools: unknown, where: string): Readonly<Record<string, AppToolInfo>> {
  if (tools === undefined) return {};
  if (tools === null || typeof tools !== "object" || Array.isArray(tools)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${where}: \`tools\` must be an object { [toolName]: { destructive?, tags? } }`,
    );
  }
  const out: Record<string, AppToolInfo> = Object.create(null);
  for (const [name, info] of Object.entries(tools as Record<string, unknown>)) {
    if (info === null || typeof info !== "object") {
      throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `${where}: tools.${name} must be { destructive?, tags? }`);
    }
    const { destructive, tags, ...rest } = info as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `${where}: tools.${name} has an unknown key \`${extra}\` (allowed: destructive, tags)`,
      );
    }
    // A guardrail matches `destructive === true`: "yes" must not quietly mean false.
    if (destructive !== undefined && typeof destructive !== "boolean") {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `${where}: tools.${name}.destructive must be true or false`,
      );
    }
    if (tags !== undefined && (!Array.isArray(tags) || tags.some((t) => typeof t !== "string"))) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `${where}: tools.${name}.tags must be an array of strings`,
      );
    }
    out[name] = { destructive: destructive as boolean | undefined, tags: tags as string[] | undefined };
  }
  return out;
}

/**
 * Merges what the app says with what the server's annotations say. The server may lie, so its word
 * only ever adds: `destructiveHint: true` makes a tool destructive, nothing makes an app-declared
 * destructive tool safe (`readOnlyHint` adds a tag and removes nothing). Hints that are not exactly
 * `true` are ignored. `unknown` (the annotations could not be read) counts as destructive.
 * @internal
 */
export function mergeMetadata(
  app: AppToolInfo | undefined,
  annotations: ToolAnnotations | undefined,
  description: string | undefined,
  unknown: boolean,
): ToolMetadata {
  const tags = new Set(app?.tags ?? []);
  const a = (annotations ?? {}) as Record<string, unknown>;
  for (const [hint, tag] of Object.entries(ANNOTATION_TAGS)) if (a[hint] === true) tags.add(tag);
  const destructive = app?.destructive === true || a.destructiveHint === true || unknown;
  return { description: typeof description === "string" ? description : undefined, destructive, tags: [...tags] };
}
