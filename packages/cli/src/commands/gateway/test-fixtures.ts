import { createRequire } from "node:module";
import { dirname, join } from "node:path";

// What the gateway command's tests start: the CLI itself (through tsx) and the real filesystem MCP server.

/** The repository's root folder. */
export const ROOT = new URL("../../../../../", import.meta.url).pathname;
/** tsx's loader, for `node --import <it> <BIN>`. */
export const TSX_LOADER = new URL("node_modules/tsx/dist/loader.mjs", `file://${ROOT}`).href;
/** The `toolware` command's source entry point. */
export const BIN = new URL("../../bin.ts", import.meta.url).pathname;

/** The file a package's bin entry runs, resolved from a workspace package that depends on it. */
export function binOf(from: string, pkg: string, name: string): string {
  const require = createRequire(join(ROOT, from, "package.json"));
  const manifest = require.resolve(`${pkg}/package.json`);
  return join(dirname(manifest), (require(manifest) as { bin: Record<string, string> }).bin[name] ?? "");
}

/** `@modelcontextprotocol/server-filesystem`'s server script (a devDependency of @toolware/gateway). */
export const FS_BIN = binOf("packages/gateway", "@modelcontextprotocol/server-filesystem", "mcp-server-filesystem");
