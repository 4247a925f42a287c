// snippet: troubleshooting-2.ts
import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { rateLimit } from "@toolware/packs/rate-limit";

try {
  rateLimit({ max: 10, per: "1 m" as never }); // a space: refused
} catch (error) {
  console.log(toolwareCode(error)); // "TOOLWARE_INVALID_OPTION"
  console.log(error instanceof TypeError); // true
}

const hooks = new ToolHooks();
hooks.use(rateLimit({ max: 10, per: "1m", key: () => 42 as never })); // a key function must return a string
hooks.on("hook:error", ({ hook, error }) => console.log(hook.name, toolwareCode(error) ?? "OTHER"));
const outcome = await hooks.invoke(defineTool({ name: "web_search", execute: () => "results" }), {});
// "rate-limit TOOLWARE_INVALID_RETURN"
console.log(outcome.status, toolwareCode(outcome.error)); // "blocked" "TOOLWARE_INVALID_RETURN"
