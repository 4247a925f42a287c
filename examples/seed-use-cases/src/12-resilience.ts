// Resilience for a flaky tool: a circuit breaker, retries with backoff, and a time limit per attempt.
// Registration order is the nesting order: the breaker (a middleware) sees each call's final outcome;
// retry wraps the tool's execution first, so it is outside the timeout and every attempt gets 50 ms.
import { defineTool, ToolHooks } from "@toolware/core";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { retry } from "@toolware/packs/retry";
import { timeout } from "@toolware/packs/timeout";

type Step = "ok" | "fail" | "hang" | "bad-request";

export interface ResilienceSummary {
  /** Per call: its status and how many attempts the tool got. */
  readonly calls: readonly { label: string; status: string; attempts: number; result: string }[];
  /** How many times the upstream service was actually hit. */
  readonly upstreamHits: number;
  /** The breaker's state after each call. */
  readonly breakerStates: readonly string[];
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function main(log: (line: string) => void = console.log): Promise<ResilienceSummary> {
  // A scripted upstream: each hit takes the next step of the script ("ok" once it runs out).
  const script: Step[] = [];
  let upstreamHits = 0;
  const weather = defineTool({
    name: "weather_api",
    execute: ({ city }: { city: string }, { signal }) => {
      upstreamHits++;
      const step = script.shift() ?? "ok";
      if (step === "fail") throw new HttpError(503, "503 Service Unavailable");
      if (step === "bad-request") throw new HttpError(400, `400 unknown city ${city}`);
      if (step === "hang") {
        // Honours its signal: the timeout aborts it.
        return new Promise<string>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
      }
      return `${city}: 18°C, light rain`;
    },
  });

  let clock = 0; // the breaker's clock, advanced by hand so the cool-down is instant and exact
  const breaker = circuitBreaker({
    failureThreshold: 2,
    cooldownMs: 30_000,
    now: () => clock,
    // A client error says nothing about the service's health.
    isFailure: (ctx) => ctx.status === "error" && !(ctx.error instanceof HttpError && ctx.error.status < 500),
  });
  const hooks = new ToolHooks();
  hooks.use(breaker);
  hooks.use(
    retry({
      retries: 2,
      minDelayMs: 5,
      jitter: "none",
      // A 4xx will fail the same way again: only retry server errors and timeouts.
      retryOn: (error) => !(error instanceof HttpError && error.status < 500),
      onRetry: ({ attempt, delayMs, error }) =>
        log(`    attempt ${attempt} failed (${(error as Error).message}), retrying in ${delayMs} ms`),
    }),
  );
  hooks.use(timeout({ ms: 50 }));

  const calls: { label: string; status: string; attempts: number; result: string }[] = [];
  const breakerStates: string[] = [];
  const call = async (label: string, steps: Step[], city = "Lisbon") => {
    script.push(...steps);
    let attempts = 0;
    const off = hooks.after((ctx) => {
      attempts = ctx.state.retry?.attempts ?? 0;
    });
    log(`${label}`);
    const outcome = await hooks.invoke(weather, { city });
    off();
    script.length = 0;
    const state = breaker.state("weather_api").state;
    log(`  -> ${outcome.status} after ${attempts} attempt(s): ${outcome.result} [breaker ${state}]`);
    calls.push({ label, status: outcome.status, attempts, result: outcome.result });
    breakerStates.push(state);
  };

  await call("1. a transient 503, then success", ["fail", "ok"]);
  await call("2. an attempt that hangs, cut at 50 ms, then success", ["hang", "ok"]);
  await call("3. a bad request is not retried", ["bad-request"], "Atlantis");
  await call("4. an outage: every attempt fails", ["fail", "fail", "fail"]);
  await call("5. still down: the breaker opens", ["fail", "fail", "fail"]);
  await call("6. while open, calls are answered at once without hitting the service", []);
  clock += 30_000;
  log("(30 s later)");
  await call("7. after the cool-down one trial goes through and closes the circuit", ["ok"]);

  log(`upstream hit ${upstreamHits} times for ${calls.length} calls`);
  return { calls, upstreamHits, breakerStates };
}
