import { definePack, type Pack, type ToolCallHookContext } from "@toolware/core";
import { packTypeError, shown } from "../internal/errors.js";
import { isAccessor } from "../internal/in-place.js";
import { checkBoolean, checkKeys, checkOptionsObject, checkPriority, ownOptions } from "../internal/options.js";
import { selectorToFilter, type ToolSelector } from "../internal/tool-selector.js";
import { type CheckPathOptions, checkPath, checkRealPath, type PathCheck } from "./path-check.js";

/** Options of {@link safePath}. */
export interface SafePathOptions {
  /** The tools whose input carries paths (names, globs, RegExps, `{ tag }`, tools or a predicate). */
  tools: ToolSelector;
  /** The directory every path must stay inside. */
  root: string;
  /** Input keys holding a path (or an array of paths). Default `["path"]`. */
  fields?: readonly string[];
  /** Also resolve symbolic links (async; the file system is read). Default false. */
  followSymlinks?: boolean;
  /** Accept the root itself (`"."`). Default true. */
  allowRoot?: boolean;
  /** Block calls missing a field. Default true (else a missing field is skipped). */
  required?: boolean;
  /** Replace each checked path in the input by its resolved absolute path. Default false. */
  rewrite?: boolean;
  /** Chain position. Default 0. */
  priority?: number;
}

const PREFIX = "toolware/validate: safePath";
const OPTION_KEYS = ["tools", "root", "fields", "followSymlinks", "allowRoot", "required", "rewrite", "priority"];

const invalid = (message: string) => packTypeError("TOOLWARE_INVALID_OPTION", `${PREFIX}: ${message}`);

function checkOptions(o: SafePathOptions): void {
  checkOptionsObject(o, `${PREFIX}() takes { tools, root, fields? }`);
  checkKeys(o, OPTION_KEYS, PREFIX, { aliases: { field: "fields", baseDir: "root", dir: "root" } });
  if (o.tools === undefined) throw invalid("`tools` is required (which tools take paths)");
  if (typeof o.root !== "string" || o.root.trim() === "") {
    throw invalid(`\`root\` must be a directory path, got ${shown(o.root)}`);
  }
  if (
    o.fields !== undefined &&
    (!Array.isArray(o.fields) || o.fields.length === 0 || o.fields.some((f) => typeof f !== "string" || f === ""))
  ) {
    throw invalid("`fields` must be a non-empty array of input keys");
  }
  for (const k of ["followSymlinks", "allowRoot", "required", "rewrite"] as const) checkBoolean(o[k], k, PREFIX);
  checkPriority(o.priority, PREFIX);
}

type Found = { field: string; index: number | undefined; value: unknown };

// A getter could answer the check with one path and the tool with another.
const unpinned = (where: string): string =>
  `${where} is held by a getter or setter, so the path checked might not be the path used; pass plain data`;

/** The path values of the call, or a reason to block. */
function collect(input: Record<string, unknown>, fields: readonly string[], required: boolean): Found[] | string {
  const found: Found[] = [];
  for (const field of fields) {
    if (isAccessor(input, field)) return unpinned(`"${field}"`);
    const value = Object.hasOwn(input, field) ? input[field] : undefined;
    if (value === undefined || value === null) {
      if (required) return `"${field}" is required`;
      continue;
    }
    if (Array.isArray(value)) {
      if (value.length === 0 && required) return `"${field}" is an empty list`;
      for (let index = 0; index < value.length; index++) {
        if (isAccessor(value, index)) return unpinned(`"${field}"[${index}]`);
        found.push({ field, index, value: value[index] });
      }
    } else {
      found.push({ field, index: undefined, value });
    }
  }
  return found;
}

function label(f: Found): string {
  return f.index === undefined ? `"${f.field}"` : `"${f.field}"[${f.index}]`;
}

/**
 * Keeps file paths in tool inputs inside one directory. Each path field is
 * checked with {@link checkPath} (traversal in any encoding, absolute, UNC and
 * drive paths, `~`, control characters, look-alikes; then resolved against
 * the root), and with `followSymlinks` also against the real file system. A
 * bad path blocks the call; the reason names the field, not the value.
 *
 * @example
 * ```ts
 * hooks.use(safePath({ tools: ["read_file", "write_file"], fields: ["path"], root: "/srv/workspace" }));
 * await hooks.invoke(readFile, { path: "..%2f..%2fetc/passwd" });
 * // blocked: 'invalid path in "path": parent-directory traversal (..)'
 * ```
 */
export function safePath(options: SafePathOptions): Pack {
  options = ownOptions(options, PREFIX);
  checkOptions(options);
  const { fields = ["path"], followSymlinks = false, required = true, rewrite = false } = options;
  const checkOpts: CheckPathOptions = { root: options.root, allowRoot: options.allowRoot ?? true };
  const tools = selectorToFilter(options.tools, `${PREFIX}: tools`);

  const settle = (ctx: ToolCallHookContext, found: Found[], checks: PathCheck[]): void => {
    for (let i = 0; i < found.length; i++) {
      const check = checks[i] as PathCheck;
      if (!check.ok) {
        ctx.block(`invalid path in ${label(found[i] as Found)}: ${check.reason}`);
        return;
      }
    }
    if (!rewrite) return;
    const input = ctx.toolInput as Record<string, unknown>;
    found.forEach((f, i) => {
      const resolved = (checks[i] as { resolved: string }).resolved;
      if (f.index === undefined) input[f.field] = resolved;
      else (input[f.field] as unknown[])[f.index] = resolved;
    });
  };

  function checkPaths(ctx: ToolCallHookContext): void | Promise<void> {
    const found = collect(ctx.toolInput as Record<string, unknown>, fields, required);
    if (typeof found === "string") {
      ctx.block(found);
      return;
    }
    if (followSymlinks) {
      return Promise.all(found.map((f) => checkRealPath(f.value, checkOpts))).then((checks) =>
        settle(ctx, found, checks),
      );
    }
    settle(
      ctx,
      found,
      found.map((f) => checkPath(f.value, checkOpts)),
    );
  }

  return definePack({
    name: "safe-path",
    hooks: [
      {
        kind: "before",
        fn: checkPaths,
        options: { name: "safePath", onError: "block", priority: options.priority ?? 0, tools },
      },
    ],
  });
}
