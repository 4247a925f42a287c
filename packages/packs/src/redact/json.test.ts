// Secrets inside JSON text: escaped strings, JSON inside JSON, log lines; cards in CSV rows and JSON arrays.
import { defineTool, ToolHooks } from "@toolware/core";
import { describe, expect, it } from "vitest";
import { createRedactor, redact, redactText } from "./index.js";

const SECRET = "hunter2-Zq8xW";

/** Redacts and checks that no part of the secret survives and that JSON stays JSON. */
function clean(input: string): string {
  const out = redactText(input);
  expect(out).not.toContain(SECRET);
  expect(out).not.toContain("Zq8xW");
  expect(() => JSON.parse(out), out).not.toThrow();
  return out;
}

describe("redact: JSON text", () => {
  it.each([
    ["nested JSON in a string field", { body: JSON.stringify({ api_key: SECRET }) }],
    ['a key: "value" line in a string field', { body: `password: "${SECRET}"` }],
    ['a log line with key="value"', { log: `INFO login user=bob password="${SECRET}" ok` }],
    ["a key='value' line", { log: `token='${SECRET}'` }],
    ["a bare value before an escaped line break", { log: `token=${SECRET}\nnext line` }],
    ["JSON inside JSON inside JSON", { a: JSON.stringify({ b: JSON.stringify({ password: SECRET }) }) }],
    ["a sensitive key with escaped letters", JSON.parse(`{"pass\\u0077ord": "${SECRET}"}`)],
    ["a sensitive key whose name needs escapes", { 'x"password': SECRET }],
    ["a sensitive key holding an array", { token: [SECRET, "second"] }],
    ["a sensitive key holding an object", { credentials: { user: "bob", value: SECRET } }],
    ["a secret that contains quotes", { password: `a"b${SECRET}` }],
    ["a bearer header in a string", { headers: `Authorization: Bearer ${SECRET}abcdefghijkl` }],
    ["a private key block", { pem: `-----BEGIN PRIVATE KEY-----\nMII${SECRET}\n-----END PRIVATE KEY-----` }],
    ["an unterminated private key block", { pem: `-----BEGIN PRIVATE KEY-----\n${SECRET}`, after: "kept" }],
    [
      "an escaped JSON document with key: value lines",
      { body: JSON.stringify({ cfg: `db:\n  password: ${SECRET}\n` }) },
    ],
    ["a key with spaces", { "user password": SECRET }],
    // Regression (fast-check seed -741099233): a delimiter inside the key hid the one after it.
    ["a key that ends in a delimiter", { "password:": SECRET, "api_key=": SECRET }],
    ["a URL password next to other fields", { u: `postgres://app:${SECRET}@db/x`, e: "a@b" }],
  ])("hides %s and keeps a valid document", (_what, value) => {
    clean(JSON.stringify(value));
    clean(JSON.stringify(value, null, 2));
    // As the whole result of a tool that returns a JSON string, and as a JSON string of that.
    clean(JSON.stringify(JSON.stringify(value)));
  });

  it("replaces only the secret: quotes, escapes, formatting and other fields stay", () => {
    expect(redactText('{"body":"password: \\"x1\\" ok","n":12345678901234567890}')).toBe(
      '{"body":"password: \\"[REDACTED]\\" ok","n":12345678901234567890}',
    );
    expect(redactText('{"body": "{\\"api_key\\": \\"abc\\", \\"id\\": 7}"}')).toBe(
      '{"body": "{\\"api_key\\": \\"[REDACTED]\\", \\"id\\": 7}"}',
    );
    expect(redactText('{\n  "password": {"a": 1},\n  "keep": "caf\\u00e9"\n}')).toBe(
      '{\n  "password": "[REDACTED]",\n  "keep": "caf\\u00e9"\n}',
    );
    expect(redactText('{"log": "token=abc\\nnext"}')).toBe('{"log": "token=[REDACTED]\\nnext"}');
  });

  it("redacts escaped JSON that is not a whole document (JSON Lines, log prefixes) without leaking", () => {
    const lines = [`{"body":"{\\"api_key\\":\\"${SECRET}\\"}"}`, `{"msg":"password: \\"${SECRET}\\" rejected"}`].join(
      "\n",
    );
    const out = redactText(lines);
    expect(out).not.toContain("Zq8xW");
    for (const line of out.split("\n")) expect(() => JSON.parse(line), line).not.toThrow();
    expect(redactText(`log: {"a": "secret=\\"${SECRET}\\""}`)).toBe('log: {"a": "secret=\\"[REDACTED]\\""}');
  });

  it("escapes a placeholder that JSON would not accept as is", () => {
    const r = createRedactor({ placeholders: { secret: 'x"\\y', card: "$&" } });
    const out = r.text('{"password": "p", "note": "token=abc", "card": 4111111111111111}');
    expect(JSON.parse(out)).toEqual({ password: 'x"\\y', note: 'token=x"\\y', card: "$&" });
  });

  it("through the pack: a tool returning JSON text reaches the agent without its secrets, still JSON", async () => {
    const hooks = new ToolHooks();
    hooks.use(redact());
    const body = JSON.stringify({
      status: 200,
      body: JSON.stringify({ access_token: SECRET, user: "bob@example.com" }),
    });
    const out = await hooks.invoke(defineTool({ name: "http_get", execute: () => body }), {});
    expect(out.result).not.toContain("Zq8xW");
    expect(out.result).not.toContain("bob@example.com");
    expect(JSON.parse(JSON.parse(out.result).body)).toEqual({ access_token: "[REDACTED]", user: "[EMAIL-REDACTED]" });
  });
});

describe("redact: card numbers between commas", () => {
  it.each([
    ["a CSV row", "1,4111111111111111", "1,[CARD-REDACTED]"],
    [
      "CSV rows",
      "id,card\n1,4111111111111111\n2,5500000000000004\n",
      "id,card\n1,[CARD-REDACTED]\n2,[CARD-REDACTED]\n",
    ],
    ["a card first in a row", "4111111111111111,12", "[CARD-REDACTED],12"],
    ["grouped cards separated by commas", "4111 1111 1111 1111,5500 0000 0000 0004", "[CARD-REDACTED],[CARD-REDACTED]"],
    ["grouped cards, comma and space", "4111-1111-1111-1111, 5500-0000-0000-0004", "[CARD-REDACTED], [CARD-REDACTED]"],
    ["a compact JSON array", "[4111111111111111,5500000000000004]", '["[CARD-REDACTED]","[CARD-REDACTED]"]'],
    ["a JSON number field", '{"card":4111111111111111,"n":1}', '{"card":"[CARD-REDACTED]","n":1}'],
    ["a negative JSON number", "[-4111111111111111]", '["[CARD-REDACTED]"]'],
    ["a card inside a JSON string between commas", '["a,4111111111111111,b"]', '["a,[CARD-REDACTED],b"]'],
  ])("finds %s", (_what, input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  // Regression (fast-check seed -836096213): a document that is one number stays a document.
  it("quotes a card that is the whole document, which still parses", () => {
    expect(redactText("1145915980327401500")).toBe('"[CARD-REDACTED]"');
    expect(redactText(" -4111111111111111\n")).toBe(' "[CARD-REDACTED]"\n');
    expect(JSON.parse(redactText("4111111111111111"))).toBe("[CARD-REDACTED]");
  });

  it("leaves digits that are part of a longer JSON number alone", () => {
    for (const text of [
      "11459159803274015000",
      "[1e4111111111111111]",
      '{"n":4111111111111111e2}',
      "1.4111111111111111",
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });

  it("still leaves decimal fractions and Luhn-invalid numbers alone", () => {
    for (const text of ["0.4111111111111111", "4111111111111111.25", "1,4111111111111112", "[4111111111111112]"]) {
      expect(redactText(text)).toBe(text);
    }
  });
});
