import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

// Generated (api), code (snippets) and installed (node_modules) folders hold no guide pages.
const SKIPPED_DIRS = new Set(["api", "node_modules", "snippets"]);

/**
 * Every Markdown page below `dir`, sorted, outside generated and installed folders.
 *
 * @example
 * ```ts
 * const pages = markdownFiles(join(root, "docs"));
 * ```
 */
export function markdownFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (!SKIPPED_DIRS.has(entry)) out.push(...markdownFiles(path));
    } else if (entry.endsWith(".md")) {
      out.push(path);
    }
  }
  return out;
}
