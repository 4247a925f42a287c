// docs/packs.md: "Every pack checks its options when you call the factory and throws a TypeError starting with
// toolware/<pack>: for a bad one". These pin that for the options that are hard to get right: a getter that
// throws, a getter that answers one value to the check and another to the pack, a Proxy, and a `tools` or
// `agents` filter the core would only refuse at registration.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineTool, scriptedHumanInput, ToolHooks, ToolwareTypeError, toolwareCode } from "@toolware/core";
import { analytics } from "@toolware/packs/analytics";
import { approval } from "@toolware/packs/approval";
import { audit } from "@toolware/packs/audit";
import { cache } from "@toolware/packs/cache";
import { circuitBreaker } from "@toolware/packs/circuit-breaker";
import { debugLog } from "@toolware/packs/debug-log";
import { guardrails } from "@toolware/packs/guardrails";
import { loopGuard } from "@toolware/packs/loop-guard";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";
import { retry } from "@toolware/packs/retry";
import { timeout } from "@toolware/packs/timeout";
import { checkPath, queryRules, safePath, validate } from "@toolware/packs/validate";
import { describe, expect, it } from "vitest";
import { z } from "zod";

// audit() opens its file when made: a directory of this run's own.
const AUDIT_FILE = join(mkdtempSync(join(tmpdir(), "toolware-options-")), "audit.jsonl");
const silent = { info: () => {}, warn: () => {}, error: () => {} };
// One audit() per file in a process: each made here lets go of the file at once (a call opens it again).
const auditClosed = (options: Record<string, unknown>) => {
  const pack = audit(options as never);
  pack.close();
  return pack;
};
type Factory = (options: Record<string, unknown>) => unknown;
// Each factory with options it accepts, and the key a getter is put on.
const FACTORIES: [string, Factory, Record<string, unknown>, string][] = [
  ["toolware/analytics", analytics as unknown as Factory, { priority: 1 }, "priority"],
  ["toolware/approval", approval as unknown as Factory, { tools: "x", timeoutMs: 1000 }, "timeoutMs"],
  ["toolware/audit", auditClosed, { file: AUDIT_FILE }, "file"],
  ["toolware/cache", cache as unknown as Factory, { tools: "x", ttl: "1m" }, "ttl"],
  ["toolware/circuit-breaker", circuitBreaker as unknown as Factory, { failureThreshold: 2 }, "failureThreshold"],
  ["toolware/debug-log", debugLog as unknown as Factory, { logger: silent }, "logger"],
  ["toolware/guardrails", guardrails as unknown as Factory, { deny: ["drop_table"] }, "deny"],
  ["toolware/loop-guard", loopGuard as unknown as Factory, { maxRepeats: 2 }, "maxRepeats"],
  ["toolware/rate-limit", rateLimit as unknown as Factory, { max: 1, per: "1m" }, "max"],
  ["toolware/redact", redact as unknown as Factory, { emails: true }, "emails"],
  ["toolware/retry", retry as unknown as Factory, { retries: 1 }, "retries"],
  ["toolware/timeout", timeout as unknown as Factory, { ms: 100 }, "ms"],
  ["toolware/validate", validate as unknown as Factory, { schemas: { web_search: z.object({}) } }, "schemas"],
  ["toolware/validate: queryRules", queryRules as unknown as Factory, { tools: "x", maxLength: 5 }, "maxLength"],
  ["toolware/validate: safePath", safePath as unknown as Factory, { tools: "x", root: "/srv" }, "root"],
];

function withGetter(base: Record<string, unknown>, key: string, get: () => unknown): Record<string, unknown> {
  const options = { ...base };
  Object.defineProperty(options, key, { enumerable: true, configurable: true, get });
  return options;
}

function expectOptionError(make: () => unknown, prefix: string): void {
  let thrown: unknown;
  try {
    make();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ToolwareTypeError);
  expect(toolwareCode(thrown)).toBe("TOOLWARE_INVALID_OPTION");
  expect((thrown as Error).message.startsWith(`${prefix}:`)).toBe(true);
}

describe("options read by every pack factory", () => {
  for (const [prefix, make, base, key] of FACTORIES) {
    it(`${prefix}: a getter that throws is a TOOLWARE_INVALID_OPTION naming the option`, () => {
      const options = withGetter(base, key, () => {
        throw new Error("no such secret");
      });
      expectOptionError(() => make(options), prefix);
      expect(() => make(options)).toThrow(`\`${key}\``);
    });

    it(`${prefix}: each option is read once, so the value checked is the value used`, () => {
      let reads = 0;
      make(
        withGetter(base, key, () => {
          reads++;
          return base[key];
        }),
      );
      expect(reads).toBe(1);
    });

    it(`${prefix}: an option that is a Proxy whose traps throw is refused with a code`, () => {
      const fail = () => {
        throw new Error("trap");
      };
      const hostile = new Proxy({}, { get: fail, ownKeys: fail, getPrototypeOf: fail, has: fail });
      expectOptionError(() => make({ ...base, [key]: hostile }), prefix);
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      expectOptionError(() => make({ ...base, [key]: proxy }), prefix);
    });

    it(`${prefix}: a Proxy whose ownKeys trap throws is refused with a code`, () => {
      const throwing = new Proxy(
        { ...base },
        {
          ownKeys() {
            throw new Error("trap");
          },
        },
      );
      expectOptionError(() => make(throwing), prefix);
    });
  }
});

describe("own properties that are not enumerable", () => {
  for (const [prefix, make, base, key] of FACTORIES) {
    it(`${prefix}: a hidden own property is no option (as Object.keys says), and a hidden known option still counts`, () => {
      // A tag some config helper left on the object: never listed by Object.keys, so never an unknown option.
      const tagged = Object.defineProperty({ ...base }, "configSource", { value: "env", enumerable: false });
      expect(() => make(tagged)).not.toThrow();
      // A known option that is not enumerable is still read and checked.
      const hidden: Record<string, unknown> = { ...base };
      delete hidden[key];
      let reads = 0;
      Object.defineProperty(hidden, key, {
        enumerable: false,
        get: () => {
          reads++;
          throw new Error("read");
        },
      });
      expectOptionError(() => make(hidden), prefix);
      expect(reads).toBe(1);
    });
  }
});

describe("a getter cannot hand a guard one value to check and another to use", () => {
  // Each getter answers a valid value the first time and one that would switch the guard off afterwards.
  const flip = (first: unknown, later: unknown) => {
    let read = false;
    return () => {
      if (read) return later;
      read = true;
      return first;
    };
  };
  const tool = defineTool({ name: "web_search", execute: () => "results" });

  it("rate-limit: max reads 1 then a billion; the second call is still limited", async () => {
    const hooks = new ToolHooks();
    hooks.use(rateLimit(withGetter({ per: "1m" }, "max", flip(1, 1e9)) as never));
    expect((await hooks.invoke(tool, {})).status).toBe("ok");
    expect((await hooks.invoke(tool, {})).status).toBe("blocked");
  });

  it("loop-guard: maxRepeats reads 2 then a billion; the third repeat is still blocked", async () => {
    const hooks = new ToolHooks();
    hooks.use(loopGuard(withGetter({ action: "block", onWarn: () => {} }, "maxRepeats", flip(2, 1e9))));
    await hooks.invoke(tool, {});
    expect((await hooks.invoke(tool, {})).status).toBe("blocked");
  });

  it("queryRules: maxLength reads 5 then Infinity; a long query is still refused", async () => {
    const hooks = new ToolHooks();
    hooks.use(queryRules(withGetter({ tools: "web_search" }, "maxLength", flip(5, Number.POSITIVE_INFINITY)) as never));
    expect((await hooks.invoke(tool, { query: "far too long a query" })).status).toBe("blocked");
  });

  it("safePath and checkPath: root reads /srv then /; /etc/passwd stays outside", async () => {
    const hooks = new ToolHooks();
    hooks.use(safePath(withGetter({ tools: "web_search" }, "root", flip("/srv", "/")) as never));
    expect((await hooks.invoke(tool, { path: "/etc/passwd" })).status).toBe("blocked");
    expect(checkPath("/etc/passwd", withGetter({}, "root", flip("/srv", "/")) as { root: string }).ok).toBe(false);
  });

  it("approval: tools reads a name then a predicate that says no; the named tool still waits for a human", async () => {
    const hooks = new ToolHooks({ humanInput: scriptedHumanInput(["no"]) });
    hooks.use(
      approval(
        withGetter(
          {},
          "tools",
          flip("web_search", () => false),
        ),
      ),
    );
    expect((await hooks.invoke(tool, {})).status).toBe("blocked");
  });
});

describe("tools and agents filters are checked by the factory, not first by use()", () => {
  const bad: unknown[] = [42, Number.NaN, null, true, {}, [], "", "   ", Symbol("x"), new Date(0), [() => true]];
  const makers: [string, (tools: unknown) => unknown][] = [
    ["toolware/rate-limit", (tools) => rateLimit({ max: 1, per: "1m", tools } as never)],
    ["toolware/loop-guard", (tools) => loopGuard({ tools } as never)],
    ["toolware/circuit-breaker", (tools) => circuitBreaker({ tools } as never)],
    ["toolware/timeout", (tools) => timeout({ ms: 100, tools } as never)],
    ["toolware/retry", (tools) => retry({ tools } as never)],
    ["toolware/analytics", (tools) => analytics({ tools } as never)],
    ["toolware/debug-log", (tools) => debugLog({ logger: silent, tools } as never)],
    ["toolware/audit", (tools) => auditClosed({ file: AUDIT_FILE, tools })],
  ];
  for (const [prefix, make] of makers) {
    it(`${prefix}: a bad \`tools\` throws at once`, () => {
      for (const tools of bad) expectOptionError(() => make(tools), prefix);
    });
  }

  const observers: [string, (agents: unknown) => unknown][] = [
    ["toolware/loop-guard", (agents) => loopGuard({ agents } as never)],
    ["toolware/analytics", (agents) => analytics({ agents } as never)],
    ["toolware/debug-log", (agents) => debugLog({ logger: silent, agents } as never)],
    ["toolware/audit", (agents) => auditClosed({ file: AUDIT_FILE, agents })],
  ];
  for (const [prefix, make] of observers) {
    it(`${prefix}: a bad \`agents\` throws at once, a good one is kept`, async () => {
      for (const agents of bad) expectOptionError(() => make(agents), prefix);
      for (const agents of ["researcher", /^res/, ["a", /b/], () => true]) expect(() => make(agents)).not.toThrow();
    });
  }
});
