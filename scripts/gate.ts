/**
 * The gate: everything `pnpm test` (the README's test command, which .ci/run runs) checks, in order, with the
 * time of each step and a closing `gate: N passed, N failed` line. The whole suite runs on the Node running
 * the gate (Node 20 in CI) and again on Node 22; the release suite tests the packed tarballs as npm installs them.
 * Run: `npx tsx scripts/gate.ts [--only <step> …]` (exit code 1 when a step fails).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { checkAdapterImports } from "./check-adapter-imports.js";
import { checkPacks } from "./check-packs.js";
import { enginesFloors, ensureNode, NODE_22 } from "./node-binaries.js";
import { packAll } from "./pack.js";
import { publishablePackages, ROOT, tarballName } from "./workspace.js";

/** One step of the gate: a command, or a function that throws when the step fails. */
export interface Step {
  readonly name: string;
  readonly run: () => void;
  /** Steps whose failure makes this one pointless: it is then reported as failed without running. */
  readonly needs?: readonly string[];
}

/** How a step went. */
export interface StepResult {
  readonly name: string;
  readonly ok: boolean;
  readonly seconds: number;
  readonly note?: string;
}

const PACKS_DIR = join(ROOT, ".packs");
const CHROMIUM = process.env.TOOLWARE_CHROMIUM ?? "/usr/bin/chromium";
const bin = (pkg: string, file: string) => join(ROOT, "node_modules", pkg, file);

/** Runs a command with its output shown; throws on a non-zero exit. `node` picks the Node of child processes. */
function sh(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, node = process.execPath): void {
  console.log(`\n$ ${[command, ...args].join(" ")}`);
  const result = spawnSync(command, args, {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, ...env, PATH: `${dirname(node)}:${process.env.PATH ?? ""}` },
  });
  if (result.status !== 0) throw new Error(`exit ${result.status ?? result.signal}`);
}

const VITEST = bin("vitest", "vitest.mjs");

/**
 * Test folders a Node cannot run because a native module of theirs was built (by `pnpm install`) for another Node:
 * better-sqlite3, which @toolware/inbox's SQLite store uses, is compiled for the Node that installed it, and the
 * second leg's Node has another ABI. Those tests run on the first leg; the gate says so instead of failing on a
 * module it never built.
 */
export function nativeExcludes(node: string): string[] {
  const probe = spawnSync(
    node,
    [
      "-e",
      "const D = require(require.resolve('better-sqlite3', { paths: [process.argv[1]] })); new D(':memory:').close()",
      join(ROOT, "packages/inbox"),
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  if (probe.status === 0) return [];
  const why = `${probe.stderr ?? ""}`;
  // Only an ABI mismatch is excused; a missing or broken install fails the tests as before.
  if (!/NODE_MODULE_VERSION|did not self-register/.test(why)) return [];
  console.log("better-sqlite3 is built for another Node's ABI: the inbox's tests run on the first leg only");
  // The inbox, and what opens its SQLite store: `toolware inbox`, the inbox example and the gateway's inbox approvals.
  return [
    "packages/inbox/**",
    "packages/cli/src/commands/inbox/**",
    "examples/inbox/**",
    "packages/gateway/src/approvals.test.ts",
    "packages/gateway/src/e2e/inbox.test.ts",
    "packages/cli/src/commands/gateway/inbox.test.ts",
  ].flatMap((glob) => ["--exclude", glob]);
}

function unitStep(label: string, node: () => string, coverage: boolean, needs: string[] = []): Step {
  return {
    name: `unit tests${coverage ? " + coverage" : ""} (${label})`,
    run: () => sh(node(), [VITEST, "run", ...(coverage ? ["--coverage"] : nativeExcludes(node()))], {}, node()),
    needs,
  };
}

function releaseStep(label: string, node: () => string): Step {
  return {
    name: `release suite (${label})`,
    run: () => sh(node(), [VITEST, "run", "-c", "vitest.release.config.ts"], { TOOLWARE_PACKS_DIR: PACKS_DIR }, node()),
    needs: ["node binaries", "pack"],
  };
}

/** The gate's steps, in the order they run. */
export function gateSteps(): Step[] {
  let node22 = "";
  const tarballs = () => publishablePackages().map((p) => join(PACKS_DIR, tarballName(p.name)));
  return [
    {
      name: "node binaries",
      run: () => {
        node22 = ensureNode(NODE_22);
        for (const floor of enginesFloors()) ensureNode(floor.version);
      },
    },
    unitStep(`Node ${process.versions.node}`, () => process.execPath, true),
    {
      name: "type check",
      run: () => sh(process.execPath, [bin("typescript", "bin/tsc"), "-p", "tsconfig.json", "--noEmit"]),
    },
    {
      name: "type check (tooling)",
      run: () => sh(process.execPath, [bin("typescript", "bin/tsc"), "-p", "tsconfig.tooling.json"]),
    },
    { name: "lint", run: () => sh(process.execPath, [bin("@biomejs/biome", "bin/biome"), "check", "."]) },
    {
      name: "packs layout",
      run: () => {
        const report = checkPacks();
        for (const problem of report.problems) console.error(`✗ ${problem}`);
        if (report.problems.length > 0) throw new Error(`${report.problems.length} problem(s)`);
        console.log(`${report.neutralPacks.length} packs load anywhere; Node.js only: ${report.nodePacks.join(", ")}`);
      },
    },
    {
      name: "adapter imports",
      run: () => {
        const report = checkAdapterImports();
        for (const problem of report.problems) console.error(`✗ ${problem}`);
        if (report.problems.length > 0) throw new Error(`${report.problems.length} problem(s)`);
        console.log(`${report.adapters.length} adapters use @toolware/core through its index only`);
      },
    },
    { name: "pack", run: () => void packAll(PACKS_DIR) },
    {
      name: "publint (tarballs)",
      run: () => {
        for (const t of tarballs()) sh(process.execPath, [bin("publint", "src/cli.js"), "run", t, "--strict"]);
      },
      needs: ["pack"],
    },
    {
      name: "attw (tarballs)",
      // ESM-only packages: node10 and CommonJS `require` resolution do not apply (see CONTRIBUTING.md).
      run: () => {
        for (const t of tarballs()) {
          sh(process.execPath, [bin("@arethetypeswrong/cli", "dist/index.js"), t, "--profile", "esm-only"]);
        }
      },
      needs: ["pack"],
    },
    releaseStep(`Node ${process.versions.node}`, () => process.execPath),
    unitStep(`Node ${NODE_22}`, () => (node22 ||= ensureNode(NODE_22)), false, ["node binaries"]),
    releaseStep(`Node ${NODE_22}`, () => (node22 ||= ensureNode(NODE_22))),
  ];
}

/**
 * Runs the steps, each after the last, and reports every one, even after a failure.
 *
 * @example
 * ```ts
 * const results = runGate(gateSteps());
 * ```
 */
export function runGate(steps: readonly Step[]): StepResult[] {
  const results: StepResult[] = [];
  for (const step of steps) {
    const failedNeed = step.needs?.find((need) => results.some((r) => r.name === need && !r.ok));
    if (failedNeed !== undefined) {
      results.push({ name: step.name, ok: false, seconds: 0, note: `not run: ${failedNeed} failed` });
      continue;
    }
    console.log(`\n━━ ${step.name}`);
    const started = performance.now();
    try {
      step.run();
      results.push({ name: step.name, ok: true, seconds: (performance.now() - started) / 1000 });
    } catch (error) {
      const note = error instanceof Error ? error.message : String(error);
      results.push({ name: step.name, ok: false, seconds: (performance.now() - started) / 1000, note });
    }
  }
  return results;
}

/** The summary table and the closing line. */
export function summary(results: readonly StepResult[]): string {
  const width = Math.max(...results.map((r) => r.name.length));
  const lines = results.map(
    (r) =>
      `${r.ok ? "✓" : "✗"} ${r.name.padEnd(width)} ${r.seconds.toFixed(1).padStart(6)} s${r.note ? `  ${r.note}` : ""}`,
  );
  const total = results.reduce((sum, r) => sum + r.seconds, 0);
  const failed = results.filter((r) => !r.ok).length;
  lines.push(`  ${"total".padEnd(width)} ${total.toFixed(1).padStart(6)} s`);
  lines.push(`gate: ${results.length - failed} passed, ${failed} failed`);
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (!existsSync(CHROMIUM)) {
    console.error(
      `\n✗ no Chromium at ${CHROMIUM}: the release suite's browser test will fail.\n` +
        "  Install Debian's package (apt-get update && apt-get install -y chromium), or set TOOLWARE_CHROMIUM.\n",
    );
  }
  // `--only pack --only publint`: just those steps (a name, or its first words), for the root scripts.
  const only = process.argv.flatMap((arg, i) => (process.argv[i - 1] === "--only" ? [arg] : []));
  const steps = gateSteps().filter(
    (step) => only.length === 0 || only.some((name) => step.name === name || step.name.startsWith(`${name} `)),
  );
  const results = runGate(steps);
  console.log(`\n${summary(results)}`);
  process.exitCode = results.every((r) => r.ok) ? 0 : 1;
}
