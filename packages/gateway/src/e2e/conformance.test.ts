import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ToolHooks } from "@toolware/core";
import { loadPolicy } from "@toolware/policy";
import { afterAll, describe, expect, it } from "vitest";
import { createGateway } from "../index.js";
import { startConformanceServer } from "./conformance-http.js";

// The conformance suite declares node >= 22; the gate's Node 22 leg runs this file.
const node22 = Number(process.versions.node.split(".")[0]) >= 22;

const require = createRequire(import.meta.url);
const pkg = require.resolve("@modelcontextprotocol/conformance/package.json");
const SUITE = join(dirname(pkg), (require(pkg) as { bin: { conformance: string } }).bin.conformance);

type Status = "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
interface Outcome {
  readonly passed: boolean;
  readonly failures: string[];
  readonly warnings: string[];
}

/**
 * Runs the suite's `server` scenarios (all of them, the pending ones too, or one) against `url` with its CLI and
 * reads each scenario's checks.
 */
async function runSuite(url: string, scenario?: string): Promise<Map<string, Outcome>> {
  const out = mkdtempSync(join(tmpdir(), "toolware-conformance-"));
  try {
    await new Promise<void>((resolve, reject) => {
      // Exit code 1 means "some check failed": the checks say which, so only a missing report is an error.
      const which = scenario === undefined ? ["--suite", "all"] : ["--scenario", scenario];
      execFile(process.execPath, [SUITE, "server", "--url", url, ...which, "-o", out], { timeout: 120_000 }, (error) =>
        error && error.code !== 1 ? reject(error) : resolve(),
      );
    });
    const results = new Map<string, Outcome>();
    for (const dir of readdirSync(out)) {
      const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
      const checks = JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8")) as {
        status: Status;
        name: string;
        errorMessage?: string;
      }[];
      const failures = checks.filter((c) => c.status === "FAILURE").map((c) => `${c.name}: ${c.errorMessage ?? ""}`);
      const warnings = checks.filter((c) => c.status === "WARNING").map((c) => c.name);
      results.set(scenario, { passed: failures.length === 0, failures, warnings });
    }
    return results;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const verdict = (o: Outcome | undefined) =>
  o === undefined
    ? "missing"
    : `${o.passed ? "pass" : "FAIL"}${o.warnings.length > 0 ? ` (warnings: ${o.warnings.join(", ")})` : ""}`;

describe.runIf(node22)("the official MCP conformance suite, directly and through the gateway", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
  });

  it("every server scenario that passes against the upstream directly passes through the gateway", async () => {
    const upstream = await startConformanceServer();
    closers.push(upstream.close);
    const policy = await loadPolicy({ version: 1, name: "allow-all", default: "allow", rules: [] } as never);
    const hooks = new ToolHooks();
    hooks.use(policy);
    const gateway = createGateway({ upstreams: [{ name: "conformance", url: upstream.url }], hooks, policy });
    await gateway.start();
    closers.push(() => gateway.close());
    const listener = await gateway.listen({ port: 0 });
    closers.push(() => listener.close());

    const direct = await runSuite(upstream.url);
    const through = await runSuite(listener.url);

    const rows = [...direct.keys()].map((scenario) => ({
      scenario,
      direct: verdict(direct.get(scenario)),
      gateway: verdict(through.get(scenario)),
    }));
    console.table(rows);
    for (const [scenario, o] of through) if (!o.passed) console.log(`gateway ✗ ${scenario}: ${o.failures.join("; ")}`);

    // The suite really ran: every active server scenario has a report, and the upstream passes the core ones.
    expect(direct.size).toBeGreaterThanOrEqual(30);
    expect([...through.keys()].sort()).toEqual([...direct.keys()].sort());
    for (const core of ["server-initialize", "tools-call-simple-text", "resources-read-text", "prompts-get-simple"])
      expect(direct.get(core)?.passed, core).toBe(true);
    const regressions = rows.filter((r) => direct.get(r.scenario)?.passed && !through.get(r.scenario)?.passed);
    expect(regressions, JSON.stringify(regressions.map((r) => through.get(r.scenario)?.failures))).toEqual([]);
  }, 240_000);

  it("the comparison can fail: a gateway whose policy denies a scenario's tool fails that scenario", async () => {
    const upstream = await startConformanceServer();
    closers.push(upstream.close);
    const policy = await loadPolicy({
      version: 1,
      name: "deny-one",
      default: "allow",
      rules: [{ name: "no-sampling", match: { tools: ["test_sampling"] }, decide: "deny", reason: "not today" }],
    } as never);
    const hooks = new ToolHooks();
    hooks.use(policy);
    const gateway = createGateway({
      upstreams: [{ name: "conformance", url: upstream.url }],
      hooks,
      policy,
      hideDenied: false,
    });
    await gateway.start();
    closers.push(() => gateway.close());
    const listener = await gateway.listen({ port: 0 });
    closers.push(() => listener.close());

    expect((await runSuite(upstream.url, "tools-call-sampling")).get("tools-call-sampling")?.passed).toBe(true);
    const denied = (await runSuite(listener.url, "tools-call-sampling")).get("tools-call-sampling");
    expect(denied?.passed).toBe(false);
    expect(denied?.failures.join(" ")).toContain("Server did not request sampling from client");
  }, 60_000);
});
