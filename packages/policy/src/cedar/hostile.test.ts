import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileCedar } from "../index.js";

// Allow only paths under /srv without "..": whatever else arrives, "allow" must mean exactly that.
const guarded = await compileCedar({
  file: "guard.cedar",
  policies: `permit(principal, action, resource) when { context.path like "/srv/*" };
forbid(principal, action, resource) when { context.path like "*..*" };
@requireApproval permit(principal, action, resource) when { context has mail && context.mail };`,
});
// Reads the whole context, so every argument is converted.
const whole = await compileCedar({
  file: "whole.cedar",
  policies: `permit(principal, action, resource) when { context == context };
forbid(principal, action, resource) when { context has secret };`,
});

const cyclic = (() => {
  const o: Record<string, unknown> = { a: 1 };
  o.o = o;
  return o;
})();
const deep = (() => {
  let v: unknown = "/srv/../etc";
  for (let i = 0; i < 5_000; i++) v = [v];
  return v;
})();
const special = fc.constantFrom<unknown>(
  Number.NaN,
  -0,
  Number.POSITIVE_INFINITY,
  2 ** 63,
  -(2 ** 64),
  2n ** 70n,
  1e21,
  0.1 + 0.2,
  null,
  undefined,
  "x".repeat(300_000),
  "\uDC00",
  cyclic,
  deep,
  new Date(0),
  () => 1,
  Symbol("s"),
  Object.create(null),
  JSON.parse('{"__proto__": {"path": "/srv/ok"}}'),
  { __entity: { type: "Agent", id: "a" } },
  { __extn: { fn: "decimal", arg: "1.0" } },
  { constructor: { prototype: 1 } },
);
const hostile = fc.oneof(
  fc.anything({
    withBigInt: true,
    withNullPrototype: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withSparseArray: true,
    withBoxedValues: true,
    withObjectString: true,
    withTypedArray: true,
  }),
  special,
);
const hostileArgs = fc.dictionary(
  fc.oneof(fc.constantFrom("path", "mail", "secret", "__proto__", "constructor", "__entity"), fc.string()),
  hostile,
  { maxKeys: 6 },
);

describe("hostile arguments never make Cedar allow what it should deny, never throw, never hang", () => {
  it("allow means a /srv/ path without ..; approve means mail", () => {
    fc.assert(
      fc.property(hostileArgs, (args) => {
        const decision = guarded.decide({ tool: "write_file", agent: "a", args });
        const path = Object.hasOwn(args, "path") ? args.path : undefined;
        const safe = typeof path === "string" && path.startsWith("/srv/") && !path.includes("..");
        if (decision.effect === "allow" || decision.effect === "approve") expect(safe).toBe(true);
        if (decision.effect === "approve") expect(args.mail).toBe(true);
        if (typeof path === "string" && path.includes("..")) expect(decision.effect).toBe("deny");
      }),
      { numRuns: 400 },
    );
  });

  it("a forbidden key anywhere in the converted context denies", () => {
    fc.assert(
      fc.property(hostileArgs, hostile, (args, secret) => {
        const decision = whole.decide({ tool: "t", args: { ...args, secret: secret ?? 1 } });
        expect(decision.effect).toBe("deny");
        const clean = whole.decide({ tool: "t", args });
        expect(["allow", "deny"]).toContain(clean.effect);
        if (clean.effect === "allow") expect(args.secret === null || args.secret === undefined).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("hostile calls (not only arguments) decide deny or none, never throw", () => {
    const call = fc.record(
      {
        tool: hostile,
        agent: hostile,
        crew: hostile,
        caller: hostile,
        tags: hostile,
        annotations: hostile,
        args: hostile,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(call, (c) => {
        const decision = guarded.decide(c as never);
        expect(["deny", "none", "allow", "approve"]).toContain(decision.effect);
        if (decision.effect === "allow") expect(String((c.args as { path?: unknown }).path)).toMatch(/^\/srv\//);
      }),
      { numRuns: 300 },
    );
  });
});
