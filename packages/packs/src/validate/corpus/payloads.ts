import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

// Loads the stored third-party payload lists (see sources.json) and proves they are the files
// named there: each one's git blob hash and line count are recomputed, so a trimmed or edited
// list shows up as a problem (the corpus test asserts there is none, the report prints them).

interface SourceFile {
  readonly stored: string;
  readonly path: string;
  readonly blob: string;
  readonly lines: number;
}

interface Sources {
  readonly repo: string;
  readonly commit: string;
  readonly placeholder: { readonly text: string; readonly replacedBy: string };
  readonly files: readonly SourceFile[];
}

/** One payload of the corpus, with where it comes from. */
export interface Payload {
  /** The list's path in the source repository. */
  readonly list: string;
  /** 1-based line in that list. */
  readonly line: number;
  /** The payload as the list has it (`{FILE}` replaced by a file name). */
  readonly text: string;
}

const here = dirname(fileURLToPath(import.meta.url));

/** The provenance record of the corpus. */
export function sources(): Sources {
  return JSON.parse(readFileSync(join(here, "sources.json"), "utf8")) as Sources;
}

function gitBlobHash(content: Buffer): string {
  return createHash("sha1").update(`blob ${content.length}\0`).update(content).digest("hex");
}

/** The payloads, and what differs from sources.json (nothing, when the lists are intact). */
export interface Corpus {
  readonly payloads: readonly Payload[];
  readonly problems: readonly string[];
}

/**
 * Every line of every list, in order (duplicates across lists kept, empty lines dropped).
 *
 * @example
 * ```ts
 * loadCorpus().payloads.length; // 23058
 * ```
 */
export function loadCorpus(): Corpus {
  const { files, placeholder } = sources();
  const out: Payload[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const content = gunzipSync(readFileSync(join(here, file.stored)));
    const hash = gitBlobHash(content);
    if (hash !== file.blob) problems.push(`${file.stored} is not blob ${file.blob} (got ${hash})`);
    const lines = content.toString("utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    if (lines.length !== file.lines) problems.push(`${file.stored} has ${lines.length} lines, not ${file.lines}`);
    lines.forEach((text, i) => {
      if (text !== "")
        out.push({ list: file.path, line: i + 1, text: text.replaceAll(placeholder.text, placeholder.replacedBy) });
    });
  }
  return { payloads: out, problems };
}
