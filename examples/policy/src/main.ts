// The seed's use cases guarded by one policy file (src/toolware.policy.yaml): the same ToolHooks any adapter
// uses, with `hooks.use(await loadPolicy(file))` as its only setup. Offline: the tools are local functions and
// the "human" who approves is scripted.
import { fileURLToPath } from "node:url";
import { Agent, defineTool, scriptedHumanInput, ToolHooks } from "@toolware/core";
import { loadPolicy, type PolicyCounters, type PolicyEvent } from "@toolware/policy";

export const POLICY_FILE = fileURLToPath(new URL("./toolware.policy.yaml", import.meta.url));

export interface PolicyExampleSummary {
  /** One entry per call: what was called and how it ended. */
  readonly calls: readonly { label: string; status: string; reason?: string; rule?: string }[];
  /** What the shadow rule would have blocked. */
  readonly shadowed: readonly string[];
  /** What the scripted human was asked. */
  readonly asked: number;
  readonly counters: PolicyCounters;
  /** Times the flaky API really ran (retries included). */
  readonly flakyRuns: number;
}

export async function main(log: (line: string) => void = console.log): Promise<PolicyExampleSummary> {
  const shadowed: string[] = [];
  const human = scriptedHumanInput(["yes", "no", "yes"]);
  const policy = await loadPolicy(POLICY_FILE, {
    humanInput: human,
    onEvent: (e: PolicyEvent) => {
      if (e.type === "shadow") shadowed.push(`${e.rule}: ${e.toolName}`);
    },
  });
  const hooks = new ToolHooks();
  hooks.use(policy);

  let flakyRuns = 0;
  const tool = (
    name: string,
    run: (input: Record<string, unknown>) => unknown = () => `${name} done`,
    destructive = false,
  ) => defineTool({ name, destructive, execute: (input: Record<string, unknown>) => run(input) });
  const junior = new Agent({ role: "junior_agent" });
  const senior = new Agent({ role: "senior_agent" });

  const plan: [string, ReturnType<typeof tool>, Record<string, unknown>, Agent?][] = [
    ["drop_table", tool("drop_table"), { table: "users" }],
    ["purge_cache (flagged destructive)", tool("purge_cache", undefined, true), {}],
    ["send_email by junior_agent", tool("send_email"), { to: "ceo@example.com" }, junior],
    ["send_email by senior_agent (approved)", tool("send_email"), { to: "ceo@example.com" }, senior],
    ["make_purchase of 20", tool("make_purchase"), { amount: 20 }],
    ["make_purchase of 500 (denied by the human)", tool("make_purchase"), { amount: 500 }],
    ["make_purchase of 900 (approved)", tool("make_purchase"), { amount: 900 }],
    ["read_file ../../etc/passwd", tool("read_file"), { path: "../../etc/passwd" }],
    ["read_file notes.txt", tool("read_file", (i) => `contents of ${String(i.path)}`), { path: "notes.txt" }],
    ["web_search with a 500-character query", tool("web_search"), { query: "x".repeat(500) }],
    ["get_api_key (redacted result)", tool("get_api_key", () => "key: sk-abcdefghijklmnopqrstuvwx12345678"), {}],
    ["post_to_social_media (shadow rule)", tool("post_to_social_media"), { text: "hello" }],
  ];
  const calls: { label: string; status: string; reason?: string; rule?: string }[] = [];
  const run = async (label: string, t: ReturnType<typeof tool>, input: Record<string, unknown>, agent?: Agent) => {
    const out = await hooks.invoke(t, input, agent === undefined ? undefined : { agent });
    const rule = out.trace.find((e) => e.hook.startsWith("policy:") && !e.hook.includes(":", 7))?.hook.slice(7);
    calls.push({
      label,
      status: out.status,
      ...(out.reason === undefined ? {} : { reason: out.reason }),
      ...(rule === undefined ? {} : { rule }),
    });
    log(`${out.status === "ok" ? "✅" : "🛑"} ${label}: ${out.result}`);
    return out;
  };
  for (const [label, t, input, agent] of plan) await run(label, t, input, agent);

  // Caching and rate limiting: the same search twice is one run; a fourth different one is refused.
  const search = tool("web_search", (i) => `results for ${String(i.query)}`);
  for (const q of ["toolware", "toolware", "cedar", "cel", "policy"]) await run(`search: ${q}`, search, { query: q });
  // Tool chain monitoring: the same page fetched again and again.
  const fetchPage = tool("fetch_page");
  for (let i = 0; i < 4; i++) await run(`fetch_page #${i + 1}`, fetchPage, { url: "https://example.com" });
  // Resilience: fails twice, then works; retried within the same call.
  const flaky = tool("flaky_api", () => {
    flakyRuns++;
    if (flakyRuns < 3) throw new Error("503 from upstream");
    return "ok at last";
  });
  await run("flaky_api", flaky, {});

  const counters = policy.counters();
  log(`calls decided: ${counters.calls}; shadow would have blocked: ${shadowed.join(", ")}`);
  return { calls, shadowed, asked: human.requests.length, counters, flakyRuns };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
