// docs/packs/redact.md: structured results are redacted as values, "never passed on unredacted". A result the walk
// does not know must not come out with its secret in pieces, and whatever the agent reads must not hold it.
import { defineTool, ToolHooks } from "@toolware/core";
import { redact, redactValue } from "@toolware/packs/redact";
import { describe, expect, it } from "vitest";

const TOKEN = `ghp_${"A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"}`;
const OPENAI = `sk-proj-${"Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z0123456789"}`;

// What the agent could piece the secret back from: the text it reads, and the values' characters joined.
function seen(value: unknown): string {
  const parts: string[] = [];
  const visit = (v: unknown, depth: number): void => {
    if (depth > 20) return;
    if (typeof v === "string") parts.push(v);
    else if (v !== null && typeof v === "object") for (const item of Object.values(v)) visit(item, depth + 1);
  };
  visit(value, 0);
  return `${JSON.stringify(value)} ${parts.join("")}`;
}

async function agentReads(result: unknown) {
  const tool = defineTool({ name: "fetch_config", execute: () => result });
  const hooks = new ToolHooks();
  hooks.use(redact());
  return hooks.invoke(tool, {});
}

describe("redact: results of unusual shapes", () => {
  it("a boxed string is redacted as the string it holds, not letter by letter", async () => {
    const out = await agentReads(new String(`token ${TOKEN}`));
    expect(out.status).toBe("ok");
    expect(seen(out.result)).not.toContain(TOKEN);
    expect(out.result).toBe(JSON.stringify("token [REDACTED]"));
    expect(redactValue({ nested: [new String(OPENAI)] })).toEqual({ nested: ["[REDACTED]"] });
  });

  it("a boxed card number is redacted like the number", () => {
    expect(redactValue({ n: Object(4111111111111111) })).toEqual({ n: "[CARD-REDACTED]" });
  });

  it("results with toJSON, getters, class instances, Maps, Sets and Errors never carry the secret", async () => {
    class Account {
      token = TOKEN;
      owner = "bob@example.com";
    }
    const shapes: unknown[] = [
      { toJSON: () => ({ key: OPENAI }) },
      { toJSON: () => `token ${TOKEN}` },
      {
        get token() {
          return TOKEN;
        },
      },
      new Account(),
      new Map([["config", `key=${OPENAI}`]]),
      new Set([TOKEN]),
      new Error(`connect failed with ${TOKEN}`),
      new Proxy({ a: TOKEN }, {}),
      Object.assign(Object.create(null), { a: TOKEN }),
      [[[[`Bearer ${TOKEN}`]]]],
    ];
    for (const shape of shapes) {
      const out = await agentReads(shape);
      expect(out.status).toBe("ok");
      const text = seen(out.result);
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(OPENAI);
    }
  });

  it("a result that cannot be read is withheld, not passed on", async () => {
    const trap = new Proxy(
      { a: TOKEN },
      {
        ownKeys() {
          throw new Error("trap");
        },
      },
    );
    const out = await agentReads(trap);
    expect(out.status).not.toBe("ok");
    expect(JSON.stringify(out.result ?? null)).not.toContain(TOKEN);
    expect(String(out.reason ?? "")).not.toContain(TOKEN);
  });
});
