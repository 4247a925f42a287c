// Adversarial probes of analytics with a custom store (docs/packs/analytics.md, "A shared store", "Failure modes").
import { defineTool, ToolHooks, ToolwareTypeError, toolwareCode } from "@toolware/core";
import { type AnalyticsStore, analytics, memoryAnalyticsStore } from "@toolware/packs/analytics";
import { describe, expect, it } from "vitest";

const tool = defineTool({ name: "probe_tool", execute: async () => "done" });
const never = () => new Promise<never>(() => {});

function store(overrides: Partial<Record<keyof AnalyticsStore, () => unknown>>): AnalyticsStore {
  const base = memoryAnalyticsStore();
  return { ...base, ...overrides } as unknown as AnalyticsStore;
}

describe("a custom store that misbehaves", () => {
  const RECORDS: [string, () => unknown][] = [
    [
      "throws an Error",
      () => {
        throw new Error("down");
      },
    ],
    [
      "throws undefined",
      () => {
        throw undefined;
      },
    ],
    ["rejects", () => Promise.reject(new Error("down"))],
    ["never settles", never],
    [
      "returns a thenable whose then throws",
      () => ({
        // biome-ignore lint/suspicious/noThenProperty: the probe is a hostile thenable
        then() {
          throw new Error("then");
        },
      }),
    ],
    ["returns a number", () => 5],
  ];
  it.each(RECORDS)("record that %s: the call still ends ok", async (_, record) => {
    const errors: unknown[] = [];
    const hooks = new ToolHooks({ onListenerError: (e) => void errors.push(e) });
    hooks.use(analytics({ store: store({ record }) }));
    const outcome = await Promise.race([
      hooks.invoke(tool, {}),
      new Promise((resolve) => setTimeout(() => resolve("hung"), 500)),
    ]);
    expect(outcome).not.toBe("hung");
    expect((outcome as { status: string }).status).toBe("ok");
    expect((outcome as { result: unknown }).result).toBe("done");
  });

  it.each([
    ["undefined", () => undefined],
    ["a number", () => 5],
    ["null", () => null],
    ["an object without totals", () => ({ tools: {}, agents: {} })],
  ])("snapshot returning %s: stats() throws a coded error", (_, snapshot) => {
    const usage = analytics({ store: store({ snapshot }) });
    let error: unknown;
    try {
      usage.stats();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolwareTypeError);
    expect(toolwareCode(error)).toBe("TOOLWARE_INVALID_RETURN");
    expect((error as Error).message).toMatch(/^toolware\/analytics: the store's snapshot\(\) must return/);
  });

  it("snapshot resolving to a non-object: stats() rejects with a coded error", async () => {
    const usage = analytics({ store: store({ snapshot: async () => "nope" }) });
    await expect(usage.stats()).rejects.toMatchObject({ code: "TOOLWARE_INVALID_RETURN" });
  });

  it("snapshot rejecting: stats() rejects with the store's own error", async () => {
    const down = Object.assign(new Error("down"), { code: "TOOLWARE_REDIS_UNAVAILABLE" });
    const usage = analytics({ store: store({ snapshot: () => Promise.reject(down) }) });
    await expect(usage.stats()).rejects.toBe(down);
  });

  it("a well-formed snapshot passes through as it is", async () => {
    const mem = memoryAnalyticsStore();
    const usage = analytics({ store: mem });
    const hooks = new ToolHooks();
    hooks.use(usage);
    await hooks.invoke(tool, {});
    expect(usage.stats().totals.count).toBe(1);
    const shared = analytics({ store: store({ snapshot: async () => mem.snapshot() }) });
    expect((await shared.stats()).totals.count).toBe(1);
  });
});

describe("option checks", () => {
  const refused = (options: unknown): string | undefined => {
    try {
      analytics(options as never);
    } catch (e) {
      return toolwareCode(e);
    }
    return undefined;
  };
  it("refuses store with sampleSize, unknown keys and stores missing a method", () => {
    expect(refused({ store: memoryAnalyticsStore(), sampleSize: 10 })).toBe("TOOLWARE_INVALID_OPTION");
    expect(refused({ sampleSize: 0 })).toBe("TOOLWARE_INVALID_OPTION");
    expect(refused({ sampleSize: 1.5 })).toBe("TOOLWARE_INVALID_OPTION");
    expect(refused({ samplesize: 10 })).toBe("TOOLWARE_UNKNOWN_OPTION");
    expect(refused({ stores: memoryAnalyticsStore() })).toBe("TOOLWARE_UNKNOWN_OPTION");
    expect(refused({ store: { record() {}, snapshot() {} } })).toBe("TOOLWARE_INVALID_OPTION");
    expect(refused({ store: null })).toBe("TOOLWARE_INVALID_OPTION");
    expect(refused({ store: memoryAnalyticsStore(), sampleSize: undefined })).toBeUndefined();
  });
});
