import type { KeyPath, SourceSpan } from "../document.js";
import { PolicyLoadError } from "../load/error.js";
import type { TextLocator } from "./types.js";
import type { CedarWasm } from "./wasm.js";

export type DetailedError = Extract<
  ReturnType<CedarWasm["checkParsePolicySet"]>,
  { type: "failure" }
>["errors"][number];

/** A text and where it was written: turns Cedar's offsets into `FILE:LINE:COLUMN`. */
export interface Located {
  readonly text: string;
  readonly file: string;
  readonly locate: TextLocator | undefined;
  /** The key path of the text in the policy document (`["cedar", "policies"]`), or `[]` for a file of its own. */
  readonly path: KeyPath;
}

/** The 1-based line and column (in UTF-16 units, as JavaScript strings count) of a character index of `text`. */
function lineColumn(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(index, 0), text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** Cedar reports UTF-8 byte offsets; JavaScript strings index UTF-16 units. */
export function indexOfByte(text: string, byteOffset: number): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    if (bytes >= byteOffset) return i;
    const code = text.codePointAt(i) as number;
    if (code > 0xffff) {
      bytes += 4;
      i++;
    } else bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
  }
  return text.length;
}

/** Where a character index of the text is in its file. */
export function spanAt(source: Located, index: number): SourceSpan {
  const { line, column } = lineColumn(source.text, index);
  return source.locate === undefined ? { file: source.file, line, column } : source.locate(line, column);
}

/** The load error of a Cedar text: one issue, `FILE:LINE:COLUMN: key path: message`. */
export function cedarLoadError(source: Located, span: SourceSpan, message: string, hint?: string): PolicyLoadError {
  const issue = { ...span, path: source.path, message };
  return new PolicyLoadError(span.file, [hint === undefined ? issue : { ...issue, hint }]);
}

/** What Cedar said in an error: its message and help, on one line. */
export function describe(error: { message: string; help: string | null }): string {
  return error.help ? `${error.message} (${error.help})` : error.message;
}

/** Throws the load error of Cedar's first error (and says how many more there are). */
export function fail(source: Located, errors: readonly DetailedError[], what: string): never {
  const first = errors[0] as DetailedError;
  const at = first.sourceLocations?.[0]?.start ?? 0;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  throw cedarLoadError(source, spanAt(source, indexOfByte(source.text, at)), `${what}: ${describe(first)}${more}`);
}

/**
 * The start and end (after the `;`) of each policy of a text Cedar has already parsed. A `;` ends a policy
 * wherever it is outside a string or a `//` comment: Cedar's expressions have no other use for it.
 */
export function policyRanges(text: string): Array<{ start: number; end: number }> {
  const ranges: Array<{ start: number; end: number }> = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "/" && text[i + 1] === "/") {
      const newline = text.indexOf("\n", i);
      i = newline === -1 ? text.length : newline;
    } else if (ch === '"') {
      if (start === -1) start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (ch === ";") {
      ranges.push({ start: start === -1 ? i : start, end: i + 1 });
      start = -1;
    } else if (start === -1 && !/\s/.test(ch as string)) start = i;
  }
  return ranges;
}
