// snippet: packs-circuit-breaker-1.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";

// A stand-in for an HTTP API that is down until `upstreamUp` turns true.
let upstreamUp = false;
let requests = 0;
const weather = defineTool({
  name: "weather_api",
  execute: async ({ city }: { city: string }) => {
    requests++;
    if (!upstreamUp) throw new Error("HTTP 503");
    return { city, tempC: 21 };
  },
});

let now = 0; // a fake clock, so the example need not wait out the cool-down
const breaker = circuitBreaker({
  failureThreshold: 3,
  cooldownMs: 30_000,
  now: () => now,
  onStateChange: ({ key, from, to }) => console.warn(`circuit ${key}: ${from} -> ${to}`),
});
const hooks = new ToolHooks();
hooks.use(breaker);

for (let i = 0; i < 3; i++) await hooks.invoke(weather, { city: "Lisbon" }); // three failures (status "error")
// circuit weather_api: closed -> open
const outcome = await hooks.invoke(weather, { city: "Lisbon" }); // answered at once, the tool does not run
console.log(outcome.status, requests, outcome.reason); // blocked 3 circuit open for weather_api, retry in 30s
console.log(breaker.state("weather_api")); // { state: "open", failures: 3, trials: 0, retryInMs: 30000 }

now += 30_000; // the cool-down is over, and the service is back
upstreamUp = true;
const trial = await hooks.invoke(weather, { city: "Lisbon" });
// circuit weather_api: open -> half-open
// circuit weather_api: half-open -> closed
console.log(trial.status, requests); // ok 4
console.log(breaker.state("weather_api")); // { state: "closed", failures: 0, trials: 0 }
