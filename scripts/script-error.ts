/** An error of the repository's own tooling (pack, checks, gate), with a stable code like the library's errors. */
export class ScriptError extends Error {
  override name = "ScriptError";
  readonly code: `TOOLWARE_${string}`;
  constructor(code: `TOOLWARE_${string}`, message: string, options?: { cause?: unknown }) {
    super(`${code}: ${message}`, options);
    this.code = code;
  }
}
