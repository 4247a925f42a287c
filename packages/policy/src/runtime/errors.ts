import { ToolwareError } from "@toolware/core";
import type { KeyPath, LoadedDocument } from "../document.js";

function pathText(path: KeyPath): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : out === "" ? part : `.${part}`;
  return out;
}

/**
 * A load error found while compiling (a CEL condition, a pack's options): it names the file, line and column of
 * `path` and the key path, so a person can go straight to it.
 */
export function compileError(loaded: LoadedDocument, path: KeyPath, message: string, cause?: unknown): ToolwareError {
  const at = loaded.locate(path);
  const where = at === undefined || at.line <= 0 ? loaded.file : `${at.file}:${at.line}:${at.column}`;
  return new ToolwareError("TOOLWARE_POLICY_INVALID", `${where}: ${pathText(path)}: ${message}`, { cause });
}
