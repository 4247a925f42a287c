import { isAbsolute, relative, resolve } from "node:path";

// Claude Code's tool names, and Gemini CLI's for the same tools (`toolware hook gemini` reads the same policy).
const SHELL = new Set(["Bash", "run_shell_command"]);
const EDITS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit", "write_file", "replace"]);
const READS = new Set([
  "Read",
  "Glob",
  "Grep",
  "LS",
  "NotebookRead",
  "read_file",
  "read_many_files",
  "glob",
  "search_file_content",
  "list_directory",
]);
const NETWORK = new Set(["WebFetch", "WebSearch", "web_fetch", "google_web_search"]);

function pathOf(input: Record<string, unknown>): string | undefined {
  const own = (key: string) => (Object.hasOwn(input, key) ? input[key] : undefined);
  const path = own("file_path") ?? own("notebook_path");
  return typeof path === "string" ? path : undefined;
}

/**
 * The tags a call of a Claude Code tool carries, for `match.tags` and tool selectors: `claude-code` on every call,
 * `shell` (Bash), `file-edit` (Write, Edit, MultiEdit, NotebookEdit), `read-only` (Read, Glob, Grep), `network`
 * (WebFetch, WebSearch), `mcp` (mcp__server__tool), and `outside-project` on an edit whose path is missing or
 * resolves outside `projectDir` (symbolic links are not followed). @internal
 */
export function tagsOf(toolName: string, input: Record<string, unknown>, projectDir: string | undefined): string[] {
  const tags = ["claude-code"];
  if (SHELL.has(toolName)) tags.push("shell");
  else if (READS.has(toolName)) tags.push("read-only");
  else if (NETWORK.has(toolName)) tags.push("network");
  else if (toolName.startsWith("mcp__")) tags.push("mcp");
  else if (EDITS.has(toolName)) {
    tags.push("file-edit");
    const path = pathOf(input);
    if (path === undefined || projectDir === undefined || !inside(projectDir, path)) tags.push("outside-project");
  }
  return tags;
}

function inside(root: string, path: string): boolean {
  // A NUL or other control character makes a path no file system reads the same way twice.
  for (let i = 0; i < path.length; i++) if (path.charCodeAt(i) < 0x20) return false;
  const rel = relative(resolve(root), resolve(root, path));
  return rel !== "" && !isAbsolute(rel) && rel !== ".." && !rel.startsWith("../") && !rel.startsWith("..\\");
}
