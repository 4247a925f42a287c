import { isAbsolute, relative, resolve } from "node:path";

const EDITS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
const READS = new Set(["Read", "Glob", "Grep", "LS", "NotebookRead"]);
const NETWORK = new Set(["WebFetch", "WebSearch"]);

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
  if (toolName === "Bash") tags.push("shell");
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
