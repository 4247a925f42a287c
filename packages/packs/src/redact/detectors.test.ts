import { describe, expect, it } from "vitest";
import { redactCards } from "./cards.js";
import {
  BEARER,
  DEFAULT_SECRET_KEYS,
  EMAIL,
  redactPairs,
  redactPrivateKeys,
  secretKeyTest,
  TOKEN_PATTERNS,
  URL_CREDENTIALS,
} from "./detectors.js";
import { createRedactor, redactText } from "./index.js";

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

// Each detector on its own, as the built-in pipeline runs it.
const DETECTORS: Record<string, (s: string) => string> = {
  tokens: (s) => TOKEN_PATTERNS.reduce((acc, re) => acc.replace(re, "X"), s),
  urlCredentials: (s) => s.replace(URL_CREDENTIALS, "$1X"),
  bearer: (s) => s.replace(BEARER, "$1X"),
  email: (s) => s.replace(EMAIL, "X"),
  pairs: (s) => redactPairs(s, secretKeyTest(DEFAULT_SECRET_KEYS), "X"),
  privateKeys: (s) => redactPrivateKeys(s, "X"),
  cards: (s) => redactCards(s, "X"),
  pipeline: (s) => redactText(s),
};

const N = 100_000;
const ADVERSARIAL: Record<string, string> = {
  letters: `${"a".repeat(N)}!`,
  ats: "@".repeat(N),
  digitsSpaced: "1 ".repeat(N / 2),
  digitsDashed: "1-".repeat(N / 2),
  digits: "1".repeat(N),
  groups: "1234 ".repeat(N / 5),
  decimals: "1.".repeat(N / 2),
  localParts: `${"a.".repeat(N / 2)}@`,
  atChain: "a@".repeat(N / 2),
  domains: `x@${"b.".repeat(N / 2)}`,
  keyPrefixes: "sk-".repeat(N / 3),
  jwtHeads: "eyJ".repeat(N / 3),
  jwtParts: "eyJaaaaa.".repeat(N / 9),
  pemHeaders: "-----BEGIN PRIVATE KEY-----".repeat(N / 27),
  pemEnds: `-----BEGIN PRIVATE KEY-----${"-----END ".repeat(N / 9)}`,
  colons: "a:".repeat(N / 2),
  equals: "a=a".repeat(N / 3),
  quotes: '"'.repeat(N),
  openQuotes: 'password:"'.repeat(N / 10),
  bearers: "bearer ".repeat(N / 7),
  schemes: "x://".repeat(N / 4),
  userinfo: "a://a:".repeat(N / 6),
  spaces: `password:${" ".repeat(N)}`,
  authHeaders: "authorization: bearer ".repeat(N / 22),
  awsPrefixes: "AKIA".repeat(N / 4),
};

function fastest(run: () => void, times: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    run();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

/** How many plain `indexOf` scans of the same string the work costs. */
function costInScans(text: string, work: (s: string) => unknown): number {
  const scan =
    fastest(() => {
      for (let i = 0; i < 100; i++) text.indexOf("\u0000");
    }, 5) / 100;
  work(text); // warm up the JIT
  return fastest(() => work(text), 3) / Math.max(scan, 1e-4);
}

// A linear pass over 100k characters costs up to some ten thousand indexOf scans here (indexOf is a
// vectorised memchr); a quadratic pattern costs millions even on 20k characters (see the control
// below). The bound sits well away from both, so machine noise cannot flip the verdict.
const BOUND = 500_000;

describe("detectors run in linear time on adversarial input", () => {
  for (const [detector, run] of Object.entries(DETECTORS)) {
    it(`${detector}`, () => {
      for (const [name, text] of Object.entries(ADVERSARIAL)) {
        const out = run(text);
        expect(typeof out).toBe("string");
        expect(costInScans(text, run), `${detector} on ${name}`).toBeLessThan(BOUND);
      }
    });
  }

  it("the measurement catches a quadratic pattern (control: the seed's e-mail regex)", () => {
    const seed = /\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Z|a-z]{2,}\b/g;
    const text = `${"a.".repeat(10_000)}!`; // 20k characters, a fifth of the inputs above
    expect(costInScans(text, (s) => s.replace(seed, "X"))).toBeGreaterThan(BOUND);
  });
});
