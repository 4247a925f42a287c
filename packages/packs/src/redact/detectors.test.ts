import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { redactCards } from "./cards.js";
import { redactCurlUser } from "./curl.js";
import {
  BEARER,
  DEFAULT_SECRET_KEYS,
  EMAIL,
  redactPairs,
  redactPrivateKeys,
  redactTokens,
  secretKeyTest,
  TOKEN_PATTERNS,
  URL_CREDENTIALS,
} from "./detectors.js";
import { foldedView } from "./fold.js";
import { createRedactor, redactText } from "./index.js";
import { redactCalls } from "./markup.js";
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

// Each detector on its own, as the built-in pipeline runs it.
const DETECTORS: Record<string, (s: string) => string> = {
  tokens: (s) => TOKEN_PATTERNS.reduce((acc, re) => acc.replace(re, "X"), s),
  tokenPass: (s) => redactTokens(s, "X"),
  urlCredentials: (s) => s.replace(URL_CREDENTIALS, "$1X"),
  bearer: (s) => s.replace(BEARER, "$1X"),
  urlScanner: (s) => redactUrlCredentials(s, "X"),
  urlScannerJson: (s) => redactUrlCredentials(s, "X", true),
  email: (s) => s.replace(EMAIL, "X"),
  emailScanner: (s) => redactEmails(s, "X"),
  pairs: (s) => redactPairs(s, secretKeyTest(DEFAULT_SECRET_KEYS), "X"),
  pairsAnyKey: (s) => redactPairs(s, (k) => k.length > 0, "X"),
  pairsJson: (s) => redactPairs(s, secretKeyTest(DEFAULT_SECRET_KEYS), "X", true),
  privateKeys: (s) => redactPrivateKeys(s, "X"),
  privateKeysJson: (s) => redactPrivateKeys(s, "X", true),
  pairsFolded: (s) => redactPairs(s, secretKeyTest(DEFAULT_SECRET_KEYS), "X", false, foldedView(s)),
  calls: (s) => redactCalls(s, s, secretKeyTest(DEFAULT_SECRET_KEYS), "X"),
  callsJson: (s) => redactCalls(s, s, secretKeyTest(DEFAULT_SECRET_KEYS), "X", true),
  curl: (s) => redactCurlUser(s, "X"),
  curlJson: (s) => redactCurlUser(s, "X", true),
  fold: (s) => foldedView(s),
  cards: (s) => redactCards(s, "X"),
  cardsJson: (s) => redactCards(s, "X", true),
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
  escapedQuotes: '\\"'.repeat(N / 2),
  backslashes: "\\".repeat(N),
  escapedKeys: '\\"password\\":\\"'.repeat(N / 16),
  deeplyEscapedKeys: '\\\\\\"token\\\\\\": '.repeat(N / 18),
  keyThenDots: `password${".".repeat(N)}:x`,
  keyThenBlanks: `token${" ".repeat(N)}=x`,
  operators: "password :=".repeat(N / 11),
  typedKeys: "var apiKey string ".repeat(N / 18),
  typeChain: `password${": x".repeat(N / 3)}=`,
  elements: "<password>".repeat(N / 10),
  elementsOpen: `<password>${"a".repeat(N)}`,
  calls: '("password", '.repeat(N / 13),
  parens: "(".repeat(N),
  callKeys: '("password", "x'.repeat(N / 15),
  callsOpen: `("password", "${"a".repeat(N)}`,
  curls: "curl -u ".repeat(N / 8),
  curlWord: `curl -u ${"a".repeat(N)}`,
  curlQuotes: `curl -u "${'a"'.repeat(N / 2)}`,
  references: "password=${".repeat(N / 11),
  substitutions: "token=$(".repeat(N / 8),
  fullwidth: "ｐａｓｓｗｏｒｄ＝".repeat(N / 9),
  bareBrackets: `password=${"(".repeat(N)}`,
  bareFields: `password=${"a,".repeat(N / 2)}`,
  bareAmps: `password=${"a&".repeat(N / 2)}`,
  hexRuns: "a4111111111111111b".repeat(N / 18),
  gitlab: "glpat-".repeat(N / 6),
  b64jwt: "ZXlK".repeat(N / 4),
  jsonCards: `[${"4111111111111111,".repeat(N / 17)}1]`,
  jsonCardsInStrings: `["${'x", 4111111111111111, "'.repeat(N / 24)}"]`,
  jsonEscapedStrings: `[${'"a\\nb",'.repeat(N / 7)}"x"]`,
  jsonSecretKeys: `{${'"password": 1, '.repeat(N / 15)}"a": 1}`,
  jsonSecretBrackets: `{"token": ${"[".repeat(N / 2)}${"]".repeat(N / 2)}}`,
  jsonPemHeaders: `[${'"-----BEGIN PRIVATE KEY-----", '.repeat(N / 31)}1]`,
  jsonNested: (() => {
    let t = '{"password":"x"}';
    while (t.length < N / 2) t = JSON.stringify({ a: t, b: t });
    return t;
  })(),
  jsonDeep: (() => {
    let t = '"password: x"';
    while (t.length * 2 < N) t = JSON.stringify(t);
    return t;
  })(),
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

describe("the pipeline's cost grows linearly with the input", () => {
  // Shapes whose naive handling is quadratic. A ratio of times (4n against n, the best of several
  // runs) is independent of the machine: linear gives about 4, quadratic about 16.
  const SHAPES: Record<string, (n: number) => string> = {
    "local parts a.a.a…": (n) => `${"a.".repeat(n / 2)}!`,
    'escaped keys \\"password\\":\\"…': (n) => '\\"password\\":\\"'.repeat(n / 16),
    "cards in a JSON array": (n) => `[${"4111111111111111,".repeat(n / 17)}1]`,
    "cards between strings": (n) => `["${'x", 4111111111111111, "'.repeat(n / 24)}"]`,
    "escaped JSON strings": (n) => `[${'"password: \\"x\\"",'.repeat(n / 20)}"x"]`,
    "near-miss digit groups": (n) => "1234 ".repeat(n / 5),
  };
  // This process's CPU time, so other load on the machine does not count.
  const cpuMs = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const best = (text: string): number => {
    let min = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 5; i++) {
      const t = cpuMs();
      redactText(text);
      min = Math.min(min, cpuMs() - t);
    }
    return min;
  };

  for (const [name, make] of Object.entries(SHAPES)) {
    it(name, () => {
      const small = make(50_000);
      const large = make(200_000);
      best(small); // warm up the JIT
      expect(best(large) / Math.max(best(small), 0.5)).toBeLessThan(10);
    });
  }
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
