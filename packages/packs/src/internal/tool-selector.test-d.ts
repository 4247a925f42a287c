// The `tools` option of every pack has one type, so a selector that compiles for one pack compiles for all.
import { defineTool } from "@toolware/core";
import { type AnalyticsOptions, analytics } from "@toolware/packs/analytics";
import { type ApprovalOptions, approval } from "@toolware/packs/approval";
import type { AuditOptions } from "@toolware/packs/audit";
import { type CacheOptions, cache } from "@toolware/packs/cache";
import { type CircuitBreakerOptions, circuitBreaker } from "@toolware/packs/circuit-breaker";
import { forTools, type ToolMatchers } from "@toolware/packs/conditional";
import { type DebugLogOptions, debugLog } from "@toolware/packs/debug-log";
import { type LoopGuardOptions, loopGuard } from "@toolware/packs/loop-guard";
import { type RateLimitOptions, rateLimit } from "@toolware/packs/rate-limit";
import { type RetryOptions, retry } from "@toolware/packs/retry";
import { type TimeoutOptions, timeout } from "@toolware/packs/timeout";
import { type QueryRulesOptions, queryRules, type SafePathOptions, type ToolSelector } from "@toolware/packs/validate";
import { describe, expectTypeOf, it } from "vitest";

const search = defineTool({ name: "web_search", tags: ["search"], execute: (input: { query: string }) => input.query });

describe("the tools option", () => {
  it("is the same ToolSelector in every pack that takes one", () => {
    expectTypeOf<NonNullable<AnalyticsOptions["tools"]>>().toEqualTypeOf<ToolSelector>();
    expectTypeOf<NonNullable<ApprovalOptions["tools"]>>().toEqualTypeOf<ToolSelector>();
    expectTypeOf<NonNullable<AuditOptions["tools"]>>().toEqualTypeOf<ToolSelector>();
    expectTypeOf<CacheOptions["tools"]>().toEqualTypeOf<ToolSelector>();
    expectTypeOf<NonNullable<CircuitBreakerOptions["tools"]>>().toEqualTypeOf<ToolSelector>();
    expectTypeOf<NonNullable<DebugLogOptions["tools"]>>().toEqualTypeOf<ToolSelector>();
    expectTypeOf<NonNullable<LoopGuardOptions["tools"]>>().toEqualTypeOf<ToolSelector>();
    expectTypeOf<NonNullable<RateLimitOptions["tools"]>>().toEqualTypeOf<ToolSelector>();
    expectTypeOf<NonNullable<RetryOptions["tools"]>>().toEqualTypeOf<ToolSelector>();
    expectTypeOf<NonNullable<TimeoutOptions["tools"]>>().toEqualTypeOf<ToolSelector>();
    expectTypeOf<QueryRulesOptions["tools"]>().toEqualTypeOf<ToolSelector>();
    expectTypeOf<SafePathOptions["tools"]>().toEqualTypeOf<ToolSelector>();
    // forTools takes the same vocabulary but a predicate, which is what when() is for.
    expectTypeOf<ToolMatchers>().toEqualTypeOf<Exclude<ToolSelector, (...args: never[]) => unknown>>();
  });

  it("takes tags, the destructive flag, names, RegExps, tools, lists and predicates", () => {
    cache({ tools: { tag: "search" }, ttl: "1m" });
    retry({ tools: { destructive: false } });
    rateLimit({ max: 1, per: "1s", tools: ["web_search", /^db_/, { tag: "paid" }, search] });
    circuitBreaker({ tools: (ctx) => ctx.tool.tags.includes("remote") });
    loopGuard({ tools: [{ destructive: true }] });
    analytics({ tools: "db_*" });
    debugLog({ tools: { tag: "search" } });
    timeout({ ms: 100, tools: { tag: "slow" } });
    approval({ tools: { tag: "payments" } });
    queryRules({ tools: { tag: "search" }, field: "query" });
    forTools([{ tag: "search" }, "get_time"]).before(() => false);
  });

  it("refuses what is no selector", () => {
    // @ts-expect-error `tags` is the tool's field; the matcher is `{ tag }`
    cache({ tools: { tags: ["search"] } });
    // @ts-expect-error the flag is a boolean
    retry({ tools: { destructive: "yes" } });
    // @ts-expect-error a number names no tool
    rateLimit({ max: 1, per: "1s", tools: 5 });
    // @ts-expect-error a predicate goes to when(), not forTools()
    forTools((ctx) => ctx.toolName === "x");
  });
});
