import { defineTool, ToolHooks } from "@toolware/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { luhnValid, redact, redactText, redactValue } from "./index.js";

const alnum = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`));
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

function checkDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return String(d);
  throw new Error("unreachable");
}

const cardDigits = fc
  .tuple(fc.constantFrom("4", "51", "37", "6011"), fc.integer({ min: 13, max: 19 }), fc.stringMatching(/^\d{18}$/))
  .map(([prefix, length, pool]) => {
    const body = (prefix + pool).slice(0, length - 1);
    return body + checkDigit(body);
  });

function grouped(digits: string, sep: string): string {
  return digits.length === 16 ? (digits.match(/\d{4}/g) ?? []).join(sep) : digits;
}

/** A secret, the text it appears as, and the part that must not survive. */
type Planted = { text: string; secret: string; digitsOnly?: boolean };

const SECRETS: fc.Arbitrary<Planted> = fc.oneof(
  fc
    .tuple(fc.constantFrom("sk-", "sk-proj-", "sk-ant-api03-"), alnum(20, 48), fc.integer({ min: 0, max: 9 }))
    .map(([p, body, d]) => ({ text: `${p}${body}${d}`, secret: `${body}${d}` })),
  alnum(36, 40).map((b) => ({ text: `ghp_${b}`, secret: b })),
  fc.stringMatching(/^[A-Z0-9]{16}$/).map((b) => ({ text: `AKIA${b}`, secret: `AKIA${b}` })),
  fc.tuple(fc.stringMatching(/^\d{10,12}$/), alnum(10, 24)).map(([a, b]) => ({ text: `xoxb-${a}-${b}`, secret: b })),
  fc
    .tuple(fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), fc.string(), { minKeys: 1, maxKeys: 4 }), alnum(16, 43))
    .map(([payload, sig]) => {
      const jwt = `${base64url({ alg: "HS256", typ: "JWT" })}.${base64url(payload)}.${sig}`;
      return { text: jwt, secret: jwt };
    }),
  fc.stringMatching(/^[A-Za-z0-9._~+/-]{16,40}$/).map((t) => ({ text: `Bearer ${t}`, secret: t })),
  fc
    .tuple(
      fc.stringMatching(/^[a-z0-9][a-z0-9._+-]{0,19}$/),
      fc.array(fc.stringMatching(/^[a-z0-9]{1,10}$/), { minLength: 1, maxLength: 3 }),
      fc.stringMatching(/^[a-z]{2,6}$/),
    )
    .map(([local, labels, tld]) => {
      const email = `${local}@${labels.join(".")}.${tld}`;
      return { text: email, secret: email };
    }),
  fc
    .tuple(cardDigits, fc.constantFrom(" ", "-", ""))
    .map(([digits, sep]) => ({ text: grouped(digits, sep), secret: digits, digitsOnly: true })),
  fc
    .tuple(
      fc.constantFrom("password", "api_key", "DB_PASSWORD", "apiKey", "client_secret", "x-api-key", "githubToken"),
      fc.constantFrom(": ", "=", " = ", ":"),
      fc.stringMatching(/^[A-Za-z0-9_!#$%*+/-]{6,20}$/),
    )
    .map(([key, sep, value]) => ({ text: `${key}${sep}${value}`, secret: value })),
);

// Filler that cannot form a secret of its own: lower-case words and punctuation, no digits, no "@", ":" or "=".
const FILLER = fc.stringMatching(/^[a-z .,!?]{0,30}$/);

function survives(out: string, p: Planted): boolean {
  return p.digitsOnly ? out.replace(/[ -]/g, "").includes(p.secret) : out.includes(p.secret);
}

describe("redaction properties", () => {
  it("no planted secret survives redactText", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(FILLER, SECRETS), { minLength: 1, maxLength: 4 }), FILLER, (parts, tail) => {
        const text = parts.map(([f, s]) => `${f} ${s.text} `).join("") + tail;
        const out = redactText(text);
        for (const [, s] of parts) expect(survives(out, s), `${s.text} in ${out}`).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it("no planted secret survives redactValue, nested anywhere", () => {
    fc.assert(
      fc.property(SECRETS, FILLER, fc.constantFrom(0, 1, 2), (s, f, shape) => {
        const leaf = `${f} ${s.text} ${f}`;
        const value = shape === 0 ? leaf : shape === 1 ? { a: [leaf] } : new Map([["k", { deep: [[leaf]] }]]);
        const out = redactValue(value);
        const seen = JSON.stringify(out instanceof Map ? [...out] : out);
        expect(survives(seen, s)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("no planted secret reaches the agent through the pack", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    await fc.assert(
      fc.asyncProperty(SECRETS, FILLER, async (s, f) => {
        const tool = defineTool({ name: "t", execute: () => ({ note: `${f} ${s.text}` }) });
        const out = await hooks.invoke(tool, {});
        expect(survives(out.result, s)).toBe(false);
        expect(() => JSON.parse(out.result)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it("leaves Luhn-invalid 16-digit numbers alone", () => {
    const invalid = fc.stringMatching(/^\d{15}$/).chain((body) =>
      fc
        .integer({ min: 0, max: 9 })
        .filter((d) => !luhnValid(body + d))
        .map((d) => body + d),
    );
    fc.assert(
      fc.property(invalid, fc.constantFrom(" ", "-", ""), FILLER, FILLER, (digits, sep, a, b) => {
        const text = `${a} ${grouped(digits, sep)} ${b}`;
        expect(redactText(text)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it("is idempotent: a second pass changes nothing", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            FILLER,
            SECRETS.map((s) => s.text),
          ),
          { maxLength: 6 },
        ),
        (parts) => {
          const once = redactText(parts.join(" "));
          expect(redactText(once)).toBe(once);
        },
      ),
      { numRuns: 500 },
    );
  });
});
