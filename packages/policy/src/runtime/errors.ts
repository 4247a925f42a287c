import type { KeyPath, LoadedDocument } from "../document.js";
import { PolicyLoadError } from "../load/index.js";

/**
 * A load error found while compiling (a CEL condition, a pack's options): it names the file, line and column of
 * `path` and the key path, so a person can go straight to it.
 */
export function compileError(
  loaded: LoadedDocument,
  path: KeyPath,
  message: string,
  code?: `TOOLWARE_POLICY_${string}`,
): PolicyLoadError {
  const at = loaded.locate(path);
  return new PolicyLoadError(
    loaded.file,
    [{ file: at?.file ?? loaded.file, line: at?.line ?? 0, column: at?.column ?? 0, path, message }],
    code,
  );
}

/** A store the file names that nothing can make: a load error with code `TOOLWARE_POLICY_STORE`. @internal */
export class StoreUnavailable extends Error {}
