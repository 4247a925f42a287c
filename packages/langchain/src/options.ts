import { ToolHooks, ToolwareTypeError } from "@toolware/core";

/** What the app says about a tool that LangChain cannot say: toolware's metadata, by tool name. */
export interface AppToolInfo {
  /** Marks the tool destructive for guardrails and approval (`{ destructive: true }` selectors). */
  destructive?: boolean;
  tags?: readonly string[];
}

const INFO_KEYS = new Set(["destructive", "tags"]);

/** Checks an adapter's arguments and options; returns the `tools` map. @internal */
export function checkAdapterOptions(
  where: string,
  hooks: unknown,
  options: unknown,
  allowed: readonly string[],
): Readonly<Record<string, AppToolInfo>> {
  if (!(hooks instanceof ToolHooks)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", `${where} needs a ToolHooks (from @toolware/core)`);
  }
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `${where} options must be an object`);
  }
  const record = options as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) {
      throw new ToolwareTypeError(
        "TOOLWARE_UNKNOWN_OPTION",
        `${where}: unknown option \`${key}\` (allowed: ${allowed.join(", ")})`,
      );
    }
  }
  for (const key of ["bind", "onOutcome"]) {
    const value = record[key];
    if (value !== undefined && typeof value !== "function") {
      throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `${where}: \`${key}\` must be a function`);
    }
  }
  if (record.name !== undefined && (typeof record.name !== "string" || record.name.trim() === "")) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `${where}: \`name\` must be a non-empty string`);
  }
  const tools = record.tools ?? {};
  if (tools === null || typeof tools !== "object" || Array.isArray(tools)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${where}: \`tools\` must map tool names to { destructive?, tags? }`,
    );
  }
  const checked: Record<string, AppToolInfo> = Object.create(null);
  for (const [name, info] of Object.entries(tools)) {
    if (info === null || typeof info !== "object" || Array.isArray(info)) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `${where}: \`tools.${name}\` must be { destructive?, tags? }`,
      );
    }
    for (const key of Object.keys(info)) {
      if (!INFO_KEYS.has(key)) {
        throw new ToolwareTypeError(
          "TOOLWARE_UNKNOWN_OPTION",
          `${where}: unknown key \`${key}\` in \`tools.${name}\` (allowed: destructive, tags)`,
        );
      }
    }
    const { destructive, tags } = info as AppToolInfo;
    if (destructive !== undefined && typeof destructive !== "boolean") {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `${where}: \`tools.${name}.destructive\` must be a boolean`,
      );
    }
    if (tags !== undefined && (!Array.isArray(tags) || !tags.every((t) => typeof t === "string"))) {
      throw new ToolwareTypeError("TOOLWARE_INVALID_OPTION", `${where}: \`tools.${name}.tags\` must be strings`);
    }
    checked[name] = { destructive, tags: tags === undefined ? undefined : [...tags] };
  }
  return checked;
}

/** The key under which a call is kept across LangGraph passes: hooks are separate, so thread and call id. @internal */
export function durableKey(threadId: unknown, callId: string | undefined): string | undefined {
  if (callId === undefined || callId === "") return undefined;
  return `${typeof threadId === "string" || typeof threadId === "number" ? String(threadId) : ""}\u0000${callId}`;
}
