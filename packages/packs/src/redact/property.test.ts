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

const REFERENCE = String.raw`(?:\$[A-Z_]*[A-Z][A-Z0-9_]*|%[A-Z_]*[A-Z][A-Z0-9_]*%|\$\d)`;
const JOINED_REFERENCES = new RegExp(`^${REFERENCE}(?:[\\s:/@._-]*${REFERENCE})*$`);

/**
 * `$API_KEY`, `%APPDATA%`, `$1`, `$A/$B`, `$1:$2`: environment variables by convention (upper case)
 * and positional parameters, with separators between them only, which redact leaves alone by
 * design. `--_$0_` or `-$API_KEY` holds more than references: a value.
 */
function notReference(v: string): boolean {
  return !JOINED_REFERENCES.test(v);
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
      fc.stringMatching(/^[A-Za-z0-9_!#$%*+/-]{6,20}$/).filter(notReference),
    )
    .map(([key, sep, value]) => ({ text: `${key}${sep}${value}`, secret: value })),
);

// Filler that cannot form a secret of its own: lower-case words and punctuation, no digits, no "@", ":" or "=".
const FILLER = fc.stringMatching(/^[a-z .,!?]{0,30}$/);

/**
 * The text around the secrets already holds one of them (filler "caller" beside `password: caller`, or
 * `password: password`): its copy outside the secret is no leak, so such a case says nothing.
 */
function echoed(parts: readonly (readonly [string, Planted])[], tail: string): boolean {
  const skeleton =
    parts.map(([f, s]) => `${f} ${s.text.endsWith(s.secret) ? s.text.slice(0, -s.secret.length) : s.text} `).join("") +
    tail;
  return parts.some(([, s]) => !s.digitsOnly && skeleton.includes(s.secret));
}

function survives(out: string, p: Planted): boolean {
  return p.digitsOnly ? out.replace(/[ -]/g, "").includes(p.secret) : out.includes(p.secret);
}

describe("redaction properties", () => {
  it("no planted secret survives redactText", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(FILLER, SECRETS), { minLength: 1, maxLength: 4 }), FILLER, (parts, tail) => {
        fc.pre(!echoed(parts, tail));
        const text = parts.map(([f, s]) => `${f} ${s.text} `).join("") + tail;
        const out = redactText(text);
        for (const [, s] of parts) expect(survives(out, s), `${s.text} in ${out}`).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  // Found by the property above (seed -665805499, shrunk): a value of separators around `$0` was
  // taken for a reference and kept.
  it("redacts a value that holds a positional parameter between separators", () => {
    expect(redactText(" password: --_$0_  a@0.aa ")).toBe(" password: [REDACTED]  [EMAIL-REDACTED] ");
    expect(redactText("password=_/$7_-")).toBe("password=[REDACTED]");
    expect(redactText("password: $3_$6_")).toBe("password: [REDACTED]");
    expect(redactText('curl -sL --user "$1:$2" "$3"')).toBe('curl -sL --user "$1:$2" "$3"');
    expect(redactText("password=$1")).toBe("password=$1");
  });

  it("no planted secret survives redactValue, nested anywhere", () => {
    fc.assert(
      fc.property(SECRETS, FILLER, fc.constantFrom(0, 1, 2), (s, f, shape) => {
        fc.pre(!echoed([[f, s]], f));
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
        fc.pre(!echoed([[f, s]], "") && !"note".includes(s.secret));
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

// Every string a JSON text holds, decoded, and the strings of JSON documents nested in them.
function decodedStrings(text: string, depth = 0): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [text];
  }
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      out.push(v);
      if (depth < 4) out.push(...decodedStrings(v, depth + 1));
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) {
        out.push(k);
        walk(item);
      }
    }
  };
  walk(value);
  return out;
}

const KEY = fc.constantFrom(
  "password",
  "api_key",
  "apiKey",
  "client_secret",
  "x-api-key",
  "githubToken",
  "DB_PASSWORD",
);
const VALUE = fc
  .stringMatching(/^[A-Za-z0-9_!#$%*+/-][A-Za-z0-9 _!#$%*+/-]{5,19}$/)
  .filter((v) => v.trim() === v && notReference(v));

/** `key: "value"` lines as logs and configs write them, each with the part that must go. */
const QUOTED_PAIR: fc.Arbitrary<Planted> = fc
  .tuple(KEY, fc.constantFrom(': "', '="', " = '", ": '", '":"', '=\\"'), VALUE)
  .map(([key, open, value]) => {
    const close = open.endsWith('\\"') ? '\\"' : open.endsWith("'") ? "'" : '"';
    const lead = open.startsWith('"') ? '"' : "";
    return { text: `${lead}${key}${open}${value}${close}`, secret: value };
  });

/** A secret planted in a JSON text of some shape; `parses`: the text is one JSON document. */
const JSON_SHAPES = fc
  .tuple(fc.oneof(SECRETS, QUOTED_PAIR), FILLER, fc.integer({ min: 0, max: 6 }), fc.boolean())
  .map(([s, f, shape, pretty]) => {
    const line = `${f} ${s.text} ${f}`;
    const indent = pretty ? 2 : undefined;
    const doc = (v: unknown) => JSON.stringify(v, null, indent);
    const texts = [
      doc({ id: 1, note: line, tags: ["a", line] }), // a string field
      doc({ body: doc({ data: { message: line } }) }), // JSON inside a string field
      doc({ outer: doc({ inner: doc({ log: line }) }) }), // three levels
      doc([
        { level: "info", msg: `request done ${line}` },
        { level: "warn", msg: line },
      ]), // log records
      doc(doc({ payload: line })), // a JSON string holding a document
      doc({ headers: { "x-trace": line }, body: [[line]] }),
      `${doc({ a: line })}\n${doc({ b: doc({ c: line }) })}`, // JSON Lines: not one document
    ];
    return { planted: s, text: texts[shape] as string, parses: shape !== 6 };
  });

describe("redaction properties: JSON text", () => {
  it("no planted secret survives in JSON text, escaped or nested, and a document stays a document", () => {
    fc.assert(
      fc.property(JSON_SHAPES, ({ planted, text, parses }) => {
        const out = redactText(text);
        const seen = [out, ...out.split("\n").flatMap((l) => decodedStrings(l))];
        for (const s of seen) expect(survives(s, planted), `${planted.text} in ${out}`).toBe(false);
        if (parses) expect(() => JSON.parse(out), out).not.toThrow();
        expect(redactText(out)).toBe(out);
      }),
      { numRuns: 1000 },
    );
  });

  it("any JSON document stays valid JSON, whatever its strings hold", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const out = redactText(text);
        expect(() => JSON.parse(out), out).not.toThrow();
        const nested = JSON.stringify({ body: text });
        expect(() => JSON.parse(redactText(nested))).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});

describe("redaction properties: cards in CSV rows and JSON arrays", () => {
  const small = fc.integer({ min: 0, max: 99999 }).map(String);

  it("finds every card in CSV rows, whatever sits in the other columns", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(small, cardDigits, fc.constantFrom(" ", "-", "")), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(",", ";", "\t"),
        (rows, sep) => {
          const text = rows.map(([id, digits, g]) => [id, grouped(digits, g), id].join(sep)).join("\n");
          const out = redactText(text);
          for (const [, digits] of rows)
            expect(survives(out, { text: "", secret: digits, digitsOnly: true })).toBe(false);
          expect(out.split("\n")).toHaveLength(rows.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("finds every card in compact JSON arrays and in grouped lists separated by commas, and keeps the JSON valid", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(cardDigits, small), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(" ", "-"),
        (items, g) => {
          const cards = items.filter((x) => x.length >= 13);
          const array = `[${items.join(",")}]`;
          const out = redactText(array);
          expect(() => JSON.parse(out), out).not.toThrow();
          const list = items.map((x) => grouped(x, g)).join(",");
          const listOut = redactText(list);
          for (const digits of cards) {
            expect(out).not.toContain(digits);
            expect(survives(listOut, { text: "", secret: digits, digitsOnly: true }), listOut).toBe(false);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
