import { dirname } from "node:path";
import { ScriptError } from "../../scripts/workspace.js";

/** A child process on the Node running the tests (npm's `#!/usr/bin/env node` finds it first on PATH). */
export function childEnv(node = process.execPath): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${dirname(node)}:${process.env.PATH ?? ""}`,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
}

/** The shell blocks (```sh) of a Markdown page. */
export function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
}

/**
 * The command the install docs run in the user's project to install the tarballs: the `npm install …` after
 * `cd ../my-app && ` in the shell block that packs them (`pack:tarballs`), split into words, comment dropped.
 *
 * @example
 * ```ts
 * installCommandFromDocs(readFileSync("docs/overview.md", "utf8")); // ["npm", "install", "../toolware/.packs/…", …]
 * ```
 */
export function installCommandFromDocs(markdown: string): string[] {
  const block = shellBlocks(markdown).find((b) => b.includes("pack:tarballs"));
  const line = block?.split("\n").find((l) => l.startsWith("cd ../my-app && npm install "));
  if (line === undefined) {
    throw new ScriptError(
      "TOOLWARE_INSTALL_DOCS",
      "docs/overview.md has no ```sh block with `pack:tarballs` and a `cd ../my-app && npm install …` line",
    );
  }
  return line
    .slice("cd ../my-app && ".length)
    .replace(/\s#.*$/, "")
    .trim()
    .split(/\s+/);
}
