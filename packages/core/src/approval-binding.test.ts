import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ApprovalLedger,
  approvalAnswers,
  bindApproval,
  bindingKey,
  defineTool,
  digestArguments,
  scriptedHumanInput,
  ToolHooks,
  toolwareCode,
} from "./index.js";

const unbindable = (input: unknown) => {
  try {
    digestArguments(input);
  } catch (error) {
    return toolwareCode(error);
  }
  return "digested";
};

// Shuffles the keys of every plain object, at every depth.
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).reverse();
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries)
    Object.defineProperty(out, k, { value: reordered(v), enumerable: true, writable: true });
  return out;
}

describe("digestArguments", () => {
  it("is a sha256 of canonical JSON: key order does not count, values and types do", () => {
    const d = digestArguments({ to: "a@example.com", n: 1 });
    expect(d).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(digestArguments({ n: 1, to: "a@example.com" })).toBe(d);
    expect(digestArguments({ n: "1", to: "a@example.com" })).not.toBe(d);
    expect(digestArguments({ a: null })).not.toBe(digestArguments({ a: "null" }));
    expect(digestArguments({ a: [1, 2] })).not.toBe(digestArguments({ a: "1,2" }));
    expect(digestArguments({ a: true })).not.toBe(digestArguments({ a: "true" }));
    expect(digestArguments({ a: { b: 1 } })).not.toBe(digestArguments({ "a.b": 1 }));
    expect(digestArguments({ a: undefined })).toBe(digestArguments({}));
    expect(digestArguments(Object.assign(Object.create(null), { x: 1 }))).toBe(digestArguments({ x: 1 }));
  });

  it("keeps an own __proto__ key as data, apart from the same key's absence", () => {
    const parsed = JSON.parse('{"__proto__":{"admin":true},"to":"a"}');
    expect(digestArguments(parsed)).not.toBe(digestArguments({ to: "a" }));
    expect(digestArguments(parsed)).toBe(digestArguments(JSON.parse('{"to":"a","__proto__":{"admin":true}}')));
    expect(digestArguments(parsed)).not.toBe(digestArguments(JSON.parse('{"__proto__":{"admin":false},"to":"a"}')));
  });

  it("property: equal JSON values digest equal in any key order; different JSON values differ", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const clean = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown; // -0 → 0, as on the wire
        const [x, y] = [clean(a), clean(b)];
        expect(digestArguments(reordered(x))).toBe(digestArguments(x));
        const same = JSON.stringify(sortDeep(x)) === JSON.stringify(sortDeep(y));
        expect(digestArguments(x) === digestArguments(y)).toBe(same);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses at once an object reached over and over (a shared sub-object 40 levels deep is 2^40 paths)", () => {
    let shared: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 40; i++) shared = { a: shared, b: shared };
    const started = process.cpuUsage();
    expect(() => digestArguments({ shared })).toThrow(/reach the same object more than 10000 times/);
    // Bounded by the revisit cap, not the million-value one: a tenth of a second here, not a second.
    expect(process.cpuUsage(started).user).toBeLessThan(500_000);
    // A few shared references are still data like any other, equal to the same tree written out.
    const leaf = { n: 1 };
    expect(digestArguments({ x: leaf, y: leaf })).toBe(digestArguments({ x: { n: 1 }, y: { n: 1 } }));
  });

  it("fails closed on what JSON cannot carry faithfully", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const getter = Object.defineProperty({}, "to", { get: () => "a", enumerable: true });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const trap = new Proxy(
      { a: 1 },
      {
        getOwnPropertyDescriptor: () => {
          throw new Error("trap");
        },
      },
    );
    for (const bad of [
      { f: () => 1 },
      { s: Symbol("x") },
      { b: 1n },
      { n: Number.NaN },
      { n: Number.POSITIVE_INFINITY },
      { a: [1, undefined] },
      { a: Object.assign(new Array(3), { 0: 1, 2: 3 }) },
      { d: new Date(0) },
      { m: new Map() },
      { u: new Uint8Array(2) },
      cyclic,
      getter,
      proxy,
      trap,
      undefined,
    ]) {
      expect(unbindable(bad)).toBe("TOOLWARE_UNBINDABLE_INPUT");
    }
  });

  it("bounds depth, shared sub-objects and size instead of hanging", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = { d: deep };
    expect(unbindable(deep)).toBe("TOOLWARE_UNBINDABLE_INPUT");
    // 40 levels of two references to one child: 2^40 paths, refused in bounded time.
    let dag: unknown = 1;
    for (let i = 0; i < 40; i++) dag = [dag, dag];
    expect(unbindable(dag)).toBe("TOOLWARE_UNBINDABLE_INPUT");
    expect(unbindable({ big: "x".repeat(33 * 1024 * 1024) })).toBe("TOOLWARE_UNBINDABLE_INPUT");
    expect(unbindable({ huge: new Array(2_000_000) })).toBe("TOOLWARE_UNBINDABLE_INPUT");
    // A large but reasonable input still digests, and one character changes it.
    const file = "y".repeat(300_000);
    expect(digestArguments({ file })).not.toBe(digestArguments({ file: `${file}z` }));
    // A shared (non-cyclic) object is fine.
    const shared = { k: 1 };
    expect(digestArguments({ a: shared, b: shared })).toBe(digestArguments({ a: { k: 1 }, b: { k: 1 } }));
  });
});

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortDeep((value as Record<string, unknown>)[k])]),
  );
}

describe("bindApproval / approvalAnswers", () => {
  it("an approval answers only its tool, its id and its arguments", () => {
    const binding = bindApproval("send_email", "call_0", { to: "a" });
    expect(Object.isFrozen(binding)).toBe(true);
    expect(approvalAnswers(binding, "send_email", "call_0", { to: "a" })).toBe(true);
    expect(approvalAnswers(binding, "send_email", "call_0", { to: "b" })).toBe(false);
    expect(approvalAnswers(binding, "delete_account", "call_0", { to: "a" })).toBe(false);
    expect(approvalAnswers(binding, "send_email", "call_1", { to: "a" })).toBe(false);
    expect(approvalAnswers({ ...binding, digest: 1 }, "send_email", "call_0", { to: "a" })).toBe(false);
    expect(approvalAnswers(null, "send_email", "call_0", { to: "a" })).toBe(false);
    expect(approvalAnswers(binding, "send_email", "call_0", { f: () => 1 })).toBe(false);
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("no");
        },
      },
    );
    expect(approvalAnswers(hostile, "send_email", "call_0", {})).toBe(false);
    expect(bindingKey(binding)).not.toBe(bindingKey(bindApproval("send_email", "call_0", { to: "b" })));
  });

  it("refuses a blank tool name or call id", () => {
    expect(() => bindApproval("", "c", {})).toThrow(expect.objectContaining({ code: "TOOLWARE_INVALID_ARGUMENT" }));
    expect(() => bindApproval("t", "", {})).toThrow(expect.objectContaining({ code: "TOOLWARE_INVALID_ARGUMENT" }));
  });

  it("every human-input request names the call it is about, as it is when asked", async () => {
    const human = scriptedHumanInput(["yes", "yes"]);
    const hooks = new ToolHooks({ humanInput: human });
    hooks.before(async (ctx) => {
      ctx.toolInput.to = "rewritten";
      await ctx.requestHumanInput("ok?");
    });
    const tool = defineTool({ name: "send", execute: (_input: Record<string, unknown>) => "sent" });
    await hooks.invoke(tool, { to: "a" }, { callId: "c1" });
    await hooks.invoke(tool, { f: () => 1 } as never, { callId: "c2" });
    expect(human.requests[0]?.binding).toEqual(bindApproval("send", "c1", { to: "rewritten" }));
    expect(human.requests[1]?.binding).toBeUndefined();
  });
});

describe("ApprovalLedger", () => {
  it("takes each approval once, and forgets the oldest past its bound", () => {
    const ledger = new ApprovalLedger(2);
    expect(ledger.take("a")).toBe(true);
    expect(ledger.take("a")).toBe(false);
    expect(ledger.taken("a")).toBe(true);
    ledger.take("b");
    ledger.take("c");
    expect(ledger.taken("a")).toBe(false);
    expect(ledger.taken("c")).toBe(true);
    expect(() => new ApprovalLedger(0)).toThrow(expect.objectContaining({ code: "TOOLWARE_INVALID_ARGUMENT" }));
  });
});

describe("the digest's SHA-256", () => {
  it("matches the standard's vectors and node:crypto on any text (UTF-8, block edges)", async () => {
    const { createHash } = await import("node:crypto");
    const { Sha256 } = await import("./sha256.js");
    const hex = (text: string) => {
      const h = new Sha256();
      h.update(text);
      return h.hex();
    };
    expect(hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    for (const n of [55, 56, 63, 64, 65, 119, 120, 1000]) {
      expect(hex("a".repeat(n))).toBe(createHash("sha256").update("a".repeat(n)).digest("hex"));
    }
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme" }), { maxLength: 5 }), (parts) => {
        const h = new Sha256();
        for (const part of parts) h.update(part);
        expect(h.hex()).toBe(createHash("sha256").update(parts.join(""), "utf8").digest("hex"));
      }),
      { numRuns: 200 },
    );
    // An emoji astride the 64 Ki-character chunk edge digests as itself.
    const edge = { s: `${"x".repeat(65_530)}😀` };
    expect(digestArguments(edge)).toBe(
      `sha256:${createHash("sha256")
        .update(`toolware-args-v1\n${JSON.stringify(edge)}`)
        .digest("hex")}`,
    );
    expect(digestArguments({ a: 1 })).toBe(
      `sha256:${createHash("sha256").update('toolware-args-v1\n{"a":1}').digest("hex")}`,
    );
  });
});
