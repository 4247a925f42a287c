// snippet: packs-retry-1.ts
import { defineTool, ToolHooks } from "@toolware/core";
import { retry } from "@toolware/packs/retry";

class HttpError extends Error {
  override name = "HttpError";
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

// A stand-in for a weather API that answers 503, then 502, then works; it has never heard of Atlantis.
const failures = [503, 502];
const weather = defineTool({
  name: "weather_api",
  execute: async ({ city }: { city: string }) => {
    if (city === "Atlantis") throw new HttpError(404);
    const status = failures.shift();
    if (status !== undefined) throw new HttpError(status);
    return { city, tempC: 21 };
  },
});

const hooks = new ToolHooks();
hooks.use(
  retry({
    retries: 3,
    minDelayMs: 200,
    maxDelayMs: 5_000,
    // A 4xx fails the same way again: retry only server errors and network failures.
    retryOn: (error) => !(error instanceof HttpError && error.status < 500),
    onRetry: ({ ctx, attempt, delayMs, error }) =>
      console.warn(`${ctx.toolName} attempt ${attempt}: ${error}; again in ${delayMs} ms`),
  }),
);
hooks.after((ctx) => {
  if ((ctx.state.retry?.attempts ?? 1) > 1) console.log(`${ctx.toolName} needed ${ctx.state.retry?.attempts} attempts`);
});

const lisbon = await hooks.invoke(weather, { city: "Lisbon" });
// weather_api attempt 1: HttpError: HTTP 503; again in 131 ms   (full jitter: between 0 and 200)
// weather_api attempt 2: HttpError: HTTP 502; again in 307 ms   (between 0 and 400)
// weather_api needed 3 attempts
console.log(lisbon.status, lisbon.raw); // ok { city: "Lisbon", tempC: 21 }
const atlantis = await hooks.invoke(weather, { city: "Atlantis" }); // not retried
console.log(atlantis.result); // "Tool execution failed. Tool: weather_api. Error: HTTP 404"
