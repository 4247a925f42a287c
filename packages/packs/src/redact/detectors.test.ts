import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_SECRET_KEYS, EMAIL, redactPairs, secretKeyTest, URL_CREDENTIALS } from "./detectors.js";
import { createRedactor, redactText } from "./index.js";
import { redactEmails, redactUrlCredentials } from "./scanners.js";

describe("redactText: what it hides", () => {
  it.each([
    ["api_key=sk-proj-abc123def456ghi789jkl", "api_key=[REDACTED]"],
    ["key sk-ant-api03-abcdefghij0123456789xyz end", "key [REDACTED] end"],
    ["GITHUB_TOKEN=ghp_123456789012345678901234567890123456", "GITHUB_TOKEN=[REDACTED]"],
    ["pat github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "pat [REDACTED]"],
    ["aws AKIAIOSFODNN7EXAMPLE key", "aws [REDACTED] key"],
    ["slack xoxb-1234567890-abcdefghij", "slack [REDACTED]"],
    ["slack xoxp-1234567890-abcdefghij", "slack [REDACTED]"],
    ["google AIzaSyA1234567890abcdefghijklmnopqrstuv", "google [REDACTED]"],
    ["stripe sk_live_abcdefghijklmnop1234", "stripe [REDACTED]"],
    ["hook whsec_abcdefghijklmnop1234", "hook [REDACTED]"],
    [
      "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U ok",
      "jwt [REDACTED] ok",
    ],
    ["Authorization: Bearer abcdefghijklmnop1234567890", "Authorization: Bearer [REDACTED]"],
    ["authorization: bearer abc.def-ghi_jkl~mno+pqr/stu=", "authorization: bearer [REDACTED]"],
    ["Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [REDACTED]"],
    ["postgres://admin:s3cr3t@db.example.com:5432/app", "postgres://admin:[REDACTED]@db.example.com:5432/app"],
    ["redis://:pa55@cache:6379", "redis://:[REDACTED]@cache:6379"],
    ['{"password": "hunter2 with spaces", "apiKey": "abc"}', '{"password": "[REDACTED]", "apiKey": "[REDACTED]"}'],
    ['{"password": 12345, "pin": 1}', '{"password": "[REDACTED]", "pin": 1}'],
    ["password: 'it''s' next", "password: '[REDACTED]''s' next"],
    ['password: "a\\"b" next', 'password: "[REDACTED]" next'],
    ['password: "never closed', 'password: "[REDACTED]'],
    ["db.password=x1; user=bob", "db.password=[REDACTED]; user=bob"],
    ["X-Api-Key: 123abc", "X-Api-Key: [REDACTED]"],
    ["client_secret = abc&next=1", "client_secret = [REDACTED]&next=1"],
    ["https://x.test/cb?access_token=abc123&state=ok", "https://x.test/cb?access_token=[REDACTED]&state=ok"],
    ["Cookie: session=abc", "Cookie: [REDACTED]"],
    ["mail bob.smith+tag@mail.example.co.uk.", "mail [EMAIL-REDACTED]."],
    ["<alice@example.com>", "<[EMAIL-REDACTED]>"],
    ["card 4111 1111 1111 1111 exp", "card [CARD-REDACTED] exp"],
    ["card 4111-1111-1111-1111", "card [CARD-REDACTED]"],
    ["plain 4111111111111111.", "plain [CARD-REDACTED]."],
    ["amex 3782 822463 10005", "amex [CARD-REDACTED]"],
    ["visa19 4111 1111 1111 1111 003", "visa19 [CARD-REDACTED]"],
    ["order 12 4111 1111 1111 1111", "order 12 [CARD-REDACTED]"],
    ["version 1.2 4111 1111 1111 1111", "version 1.2 [CARD-REDACTED]"],
    ["-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAK\n-----END RSA PRIVATE KEY-----\nafter", "[REDACTED]\nafter"],
    ["x -----BEGIN OPENSSH PRIVATE KEY-----\nabc", "x [REDACTED]"],
    ["-----BEGIN PGP PRIVATE KEY BLOCK-----\nx\n-----END PGP PRIVATE KEY BLOCK-----", "[REDACTED]"],
  ])("%j", (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each([
    "tokens: 1500, max_tokens: 10, token_type: bearer, token_count=3",
    "task-management-system-overview and sk-learn-documentation-pages",
    "the bearer of this letter",
    "bad card 4111 1111 1111 1112",
    "pi 3.1415926535897932384 and 0.4111111111111111 and 4111111111111111.25",
    "phone +1 555 123 4567, zip 94103, year 2024-11-29",
    "ids 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16",
    "a 20-digit id 41111111111111111111",
    "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
    "user@localhost and @handle and a@b",
    "oauth: enabled, bypass=1, passenger=2, author: me",
    "",
  ])("leaves %j alone", (input) => {
    expect(redactText(input)).toBe(input);
  });

  it("honours toggles, extra keys, custom patterns, replacers and placeholders", () => {
    const r = createRedactor({
      emails: false,
      keys: ["x_internal_id"],
      patterns: [/ACME-\d{6}/, "Project Falcon", /q*/g],
      replacers: [(s) => s.replaceAll("hunter2", "******")],
      placeholders: { card: "<card>", custom: "<custom>" },
    });
    expect(r.text("a@b.io ACME-123456 Project Falcon pwd hunter2 4111111111111111 x_internal_id: 42")).toBe(
      "a@b.io <custom> <custom> pwd ****** <card> x_internal_id: [REDACTED]",
    );
    expect(createRedactor({ secrets: false, cards: false }).text("token=abc 4111111111111111")).toBe(
      "token=abc 4111111111111111",
    );
    expect(() => createRedactor({ replacers: [() => 1 as never] }).text("x")).toThrow(/replacer returned number/);
  });

  it("recognises secret key names however they are spelled", () => {
    const isSecret = secretKeyTest(DEFAULT_SECRET_KEYS);
    for (const key of [
      "password",
      "DB_PASSWORD",
      "db.password",
      "apiKey",
      "X-API-KEY",
      "githubToken",
      "client_secret",
    ]) {
      expect(isSecret(key), key).toBe(true);
    }
    for (const key of ["tokens", "max_tokens", "token_type", "oauth", "bypass", "author", "secretary", "passenger"]) {
      expect(isSecret(key), key).toBe(false);
    }
  });
});

describe("the hand-written scanners find exactly what their reference patterns find", () => {
  const text = (chars: string[]) => fc.array(fc.constantFrom(...chars), { maxLength: 60 }).map((a) => a.join(""));

  it("e-mail addresses: redactEmails equals EMAIL", () => {
    const chars = ["a", "Z", "1", ".", "-", "_", "%", "+", "@", " ", "é", "co", "uk", "!", ".."];
    fc.assert(
      fc.property(text(chars), (s) => {
        expect(redactEmails(s, "X")).toBe(s.replace(EMAIL, "X"));
      }),
      { numRuns: 3000 },
    );
  });

  it("URL passwords: redactUrlCredentials equals URL_CREDENTIALS", () => {
    const chars = ["a", "Z", "1", "+", ".", "-", "://", ":", "@", "/", "?", "#", " ", "\t", '"', "x", "\u00a0"];
    fc.assert(
      fc.property(text(chars), (s) => {
        expect(redactUrlCredentials(s, "X")).toBe(s.replace(URL_CREDENTIALS, "$1X"));
      }),
      { numRuns: 3000 },
    );
    const long = `a://${"u".repeat(256)}:p@h a://${"u".repeat(257)}:p@h x://u:${"p".repeat(257)}@h`;
    expect(redactUrlCredentials(long, "X")).toBe(long.replace(URL_CREDENTIALS, "$1X"));
    const scheme = `${"s".repeat(32)}://u:p@h ${"s".repeat(33)}://u:p@h`;
    expect(redactUrlCredentials(scheme, "X")).toBe(scheme.replace(URL_CREDENTIALS, "$1X"));
  });
});

describe("the sensitive-word finder never misses a key the plain search finds", () => {
  it("equals a search that reads every delimiter", () => {
    const isSecret = secretKeyTest([...DEFAULT_SECRET_KEYS, "pin_code"]);
    const everyKey = (k: string) => isSecret(k);
    const piece = fc.constantFrom(
      "password",
      "Password",
      "api",
      "_key",
      "Key",
      "pin",
      "-code",
      "x",
      ".",
      "-",
      "_",
      "token",
      "s",
      " ",
      "\t",
      ":",
      "=",
      '"',
      "'",
      "\\",
      '\\"',
      "v1",
      "Bearer ",
      "\n",
      ",",
      "{",
      "}",
      "auth",
      "ID",
      "session",
      "!",
      "é",
      "ж",
    );
    // Regressions (seed -741099233): the finder missed the `=` after a quoted key ending in `:`;
    expect(redactPairs('\\"password:"=password', isSecret, "X", true)).toBe('\\"password:"=X');
    // and (seed 1012339405) after one ending in `'`.
    expect(redactPairs('\\"password\'"=password', isSecret, "X", true)).toBe('\\"password\'"=X');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const s = parts.join("");
        expect(redactPairs(s, isSecret, "X")).toBe(redactPairs(s, everyKey, "X"));
        expect(redactPairs(s, isSecret, "X", true)).toBe(redactPairs(s, everyKey, "X", true));
      }),
      { numRuns: 3000 },
    );
  });
});
