import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { buildBench } from "./build.js";
import { RESULT_MARK, type SuiteResult } from "./harness.js";
import { render, renderConsole } from "./report.js";

// The driver: compiles the bench and the core to plain JavaScript, runs each suite in its own
// `node` process (one at a time, so they never compete for the CPU), and writes results.md.

// Each job is one process: a suite and the case it measures.
const JOBS: Record<string, readonly string[]> = {
  toolware: ["0", "1", "10", "50", "filtered", "kinds", "timing"],
  hookable: ["1", "10", "50"],
  "openai-agents": ["0", "1", "10", "50"],
  langchain: ["node-0", "node-1", "node-10", "node-50", "agent-0", "agent-1", "agent-10", "agent-50"],
  prototype: ["kinds"],
  packs: ["cache", "rate-limit"],
  policy: ["rules", "cel"],
  "ai-sdk": ["loop"],
  heap: ["1e6"],
  observe: ["otel", "audit", "audit-fsync"],
  redact: ["html", "json", "adversarial"],
  redis: ["stores"],
  cedar: ["decide"],
  "policy-check": ["1000"],
  inbox: ["latency", "page"],
  gateway: ["stdio", "http", "load", "memory"],
};
const SUITES = Object.keys(JOBS);
const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const { values } = parseArgs({
  // `pnpm bench -- --quick` may hand the script a literal "--".
  args: process.argv.slice(2).filter((a) => a !== "--"),
  options: {
    suites: { type: "string" },
    core: { type: "string" },
    out: { type: "string" },
    quick: { type: "boolean", default: false },
    wall: { type: "boolean", default: false },
  },
  allowPositionals: false,
});

const selected = values.suites === undefined ? [...SUITES] : values.suites.split(",").map((s) => s.trim());
for (const s of selected) {
  if (!SUITES.includes(s)) {
    throw new TypeError(`bench: unknown suite ${JSON.stringify(s)} (expected some of: ${SUITES.join(", ")})`);
  }
}
// Results of another core (a proposal) never overwrite the committed results unless asked to.
const out =
  values.out !== undefined
    ? resolve(values.out)
    : values.core === undefined && values.suites === undefined && !values.quick
      ? join(benchDir, "results.md")
      : undefined;

function runSuite(file: string, which: string): Promise<SuiteResult> {
  return runProcess(["--expose-gc", file, which]);
}

// The Redis suite runs on the transpiled stores like every other suite: under tsx each closure a
// store makes per call cost ~0.4 µs more than in the published build, and the bare EVALSHA floor
// makes none, so tsx widened the gap the target is about.
function runRedisSuite(suitesDir: string): Promise<SuiteResult | undefined> {
  if (spawnSync("redis-server", ["--version"], { stdio: "ignore" }).status !== 0) {
    process.stderr.write("skipped: redis-server is not installed (bash scripts/install-redis.sh)\n");
    return Promise.resolve(undefined);
  }
  return runProcess([join(suitesDir, "..", "redis", "suite.js")]);
}

function runProcess(args: readonly string[]): Promise<SuiteResult> {
  const file = args.find((a) => a.endsWith(".js") || a.endsWith(".ts")) ?? "";
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // No tracing exporters, no network: these suites only time local code.
    LANGSMITH_TRACING: "false",
    LANGCHAIN_TRACING_V2: "false",
    OPENAI_AGENTS_DISABLE_TRACING: "1",
  };
  if (values.quick) {
    env.BENCH_ROUNDS = "3";
    env.BENCH_ROUND_MS = "40";
    env.BENCH_HEAP_CALLS = "200000";
    env.BENCH_GATEWAY_CALLS = "4000";
  }
  if (values.wall) env.BENCH_CLOCK = "wall";
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const line = stdout.split("\n").find((l) => l.startsWith(RESULT_MARK));
      if (code !== 0 || line === undefined) {
        reject(new Error(`bench: ${relative(benchDir, file)} exited with ${code}\n${stdout}`));
        return;
      }
      resolvePromise(JSON.parse(line.slice(RESULT_MARK.length)) as SuiteResult);
    });
  });
}

// The inbox's latency is mostly waiting (a store round trip, a poll), not CPU, and its page is timed
// in Chromium: each runs its own wall-clock script under tsx (the native SQLite binding is not part
// of the transpiled bench) and their tables go at the end of the results.
function runInboxScript(name: string, args: readonly string[]): string {
  const tsx = join(benchDir, "..", "node_modules/tsx/dist/cli.mjs");
  const script = join(benchDir, `src/inbox/${name}.ts`);
  const run = spawnSync(process.execPath, [tsx, "--conditions", "@toolware/source", script, ...args], {
    cwd: join(benchDir, ".."),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (run.status !== 0) throw new Error(`bench: inbox ${name} exited with ${run.status}\n${run.stdout}`);
  process.stderr.write("\n");
  return run.stdout.trim();
}

const started = performance.now();
const loadBefore = loadavg();
const { suites: suitesDir, coreSrc } = buildBench(values.core === undefined ? {} : { coreSrc: values.core });
const results: SuiteResult[] = [];
let inboxTable: string | undefined;
let pageTable: string | undefined;
for (const name of selected) {
  for (const which of JOBS[name] ?? []) {
    process.stderr.write(`bench: ${name} ${which} `);
    if (name === "inbox" && which === "latency") {
      inboxTable = runInboxScript("latency", [values.quick ? "30" : "300"]);
      continue;
    }
    if (name === "inbox") {
      pageTable = runInboxScript("page", [values.quick ? "2" : "7"]);
      continue;
    }
    if (name === "redis") {
      const result = await runRedisSuite(suitesDir);
      if (result !== undefined) results.push(result);
    } else results.push(await runSuite(join(suitesDir, `${name}.js`), which));
  }
}

const info = {
  date: new Date().toISOString().slice(0, 16).replace("T", " "),
  node: process.versions.node,
  cpu: cpus()[0]?.model ?? "unknown CPU",
  cores: cpus().length,
  clock: values.wall
    ? "wall-clock time (performance.now)"
    : "process CPU time (process.cpuUsage: user + system, all threads), so other load on the machine is not counted",
  loadBefore,
  loadAfter: loadavg(),
  core: relative(join(benchDir, ".."), coreSrc).startsWith("..") ? coreSrc : relative(join(benchDir, ".."), coreSrc),
  seconds: (performance.now() - started) / 1000,
};
console.log(renderConsole(results));
if (inboxTable !== undefined) console.log(`\n${inboxTable}`);
if (pageTable !== undefined) console.log(`\n${pageTable}`);
if (out !== undefined) {
  const inbox =
    inboxTable === undefined
      ? ""
      : `\n## inbox: from the decision to the waiting call's tool starting\n\n${inboxTable}\n\n- Wall-clock, loopback: an agent's inbox waits in the approval pack, a second inbox on the same store decides (the default 10 ms poll), the tool records when it starts. \`npx tsx --conditions @toolware/source bench/src/inbox/latency.ts\`.\n`;
  const page = pageTable === undefined ? "" : pageSection(pageTable);
  writeFileSync(out, withPageTarget(render(info, results), pageTable) + inbox + page);
  console.log(`\nwrote ${relative(process.cwd(), out)}`);
}

function pageSection(table: string): string {
  const rows = table.split("\n").filter((l) => l.startsWith("|"));
  return `\n## inbox: the page with 1,000 pending requests in Chromium\n\n${rows.join("\n")}\n\n- Wall-clock, loopback, headless Debian Chromium: the server renders the page (50 requests a page, three forms each), a signed-in context opens it; first contentful paint and DOMContentLoaded from the navigation's start, median and worst over the rounds. \`npx tsx --conditions @toolware/source bench/src/inbox/page.ts\`.\n`;
}

// The page's verdict joins the Targets table (its last JSON line carries it).
function withPageTarget(markdown: string, table: string | undefined): string {
  const last = table?.split("\n").at(-1);
  if (last === undefined || !last.startsWith("{")) return markdown;
  const v = JSON.parse(last) as { fcp: number; pass: boolean };
  const row = `| the inbox page with 1,000 pending requests: first render in Chromium < 1 s | ${v.fcp.toFixed(0)} ms (first contentful paint, median) | ${v.pass ? "PASS" : "**MISS**"} | wall-clock, headless Chromium on this machine; 50 requests a page (see the inbox page section) |`;
  return markdown.replace(/(## Targets\n\n(?:\|.*\n)+)/, (t) => `${t}${row}\n`);
}
