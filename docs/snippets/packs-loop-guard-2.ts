// snippet: packs-loop-guard-2.ts
import { Agent, defineTool, ToolHooks } from "@toolware/core";
import { type LoopEvent, loopGuard } from "@toolware/packs/loop-guard";

const search = defineTool({ name: "web_search", execute: ({ query }: { query: string }) => `results for ${query}` });
const fetchPage = defineTool({ name: "fetch_page", execute: ({ url }: { url: string }) => `<html>${url}</html>` });
const researcher = new Agent({ role: "researcher" });

let now = 0; // a fake clock: one call every second
const hooks = new ToolHooks();
hooks.use(
  loopGuard({
    maxRepeats: 3,
    maxInWindow: 4,
    windowMs: "1m",
    now: () => now++ * 1000,
    // Warn (the default action) through your own logger; `ctx` is the call's context.
    onWarn: (event: LoopEvent) => {
      const { ctx, ...rest } = event;
      console.log(rest, ctx.agent?.role);
    },
  }),
);

const agent = { agent: researcher };
await hooks.invoke(search, { query: "a" }, agent);
await hooks.invoke(search, { query: "b" }, agent);
await hooks.invoke(search, { query: "c" }, agent); // the same tool, 3 times in a row (inputs are not compared)
// { kind: "repeats",          in a row ("window": within `windowMs`; "repeats" wins when both trigger)
//   toolName: "web_search",
//   count: 3,                 identical calls, this one included
//   limit: 3,                 maxRepeats (or maxInWindow)
//   scope: "agent",           whose calls are counted together
//   scopeName: "agent researcher",
//   action: "warn",           or "block"
//   message: "Loop detected: web_search called 3 times in a row by agent researcher." } researcher
await hooks.invoke(fetchPage, { url: "https://example.com" }, agent); // breaks the streak
await hooks.invoke(search, { query: "d" }, agent); // but 4 searches within a minute
// { kind: "window", toolName: "web_search", count: 4, limit: 4, scope: "agent", scopeName: "agent researcher",
//   action: "warn", message: "Loop detected: web_search called 4 times within 1m by agent researcher." } researcher
