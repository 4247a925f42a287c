import { describe, expect, it } from "vitest";
import { redactCards } from "./cards.js";
import { redactCurlUser } from "./curl.js";
import {
  BEARER,
  DEFAULT_SECRET_KEYS,
  EMAIL,
  GATED_TOKEN_PATTERNS,
  redactPairs,
  redactPrivateKeys,
  redactTokens,
  secretKeyTest,
  TOKEN_PATTERNS,
  URL_CREDENTIALS,
} from "./detectors.js";
import { redactElements } from "./elements.js";
import { foldedView } from "./fold.js";
import { redactText } from "./index.js";
import { redactCalls } from "./markup.js";
import { redactEmails, redactUrlCredentials } from "./scanners.js";

// Each detector on its own, as the built-in pipeline runs it.
const DETECTORS: Record<string, (s: string) => string> = {
  tokens: (s) => TOKEN_PATTERNS.reduce((acc, re) => acc.replace(re, "X"), s),
  gatedTokens: (s) => GATED_TOKEN_PATTERNS.reduce((acc, [, re]) => acc.replace(re, "X"), s),
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
  elements: (s) => redactElements(s, s, secretKeyTest(DEFAULT_SECRET_KEYS), "X"),
  elementsJson: (s) => redactElements(s, s, secretKeyTest(DEFAULT_SECRET_KEYS), "X", true),
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
  tagsWithAttributes: '<password type="plain">'.repeat(N / 23),
  openAttributes: '<a b="'.repeat(N / 6),
  attributeChain: `<a${' b="1"'.repeat(N / 7)}`,
  configEntries: '<add key="ApiKey" value="'.repeat(N / 25),
  valueChildren: "<password><value>".repeat(N / 17),
  valueChildOpen: `<password><value>${"a".repeat(N)}`,
  longTagNames: `<${"a".repeat(N)}`,
  setters: 'setPassword("'.repeat(N / 13),
  setterParens: "setPassword(".repeat(N / 12),
  setterNames: `${"a".repeat(N)}(`,
  invisibleKeys: "pass\u200bword=".repeat(N / 14),
  invisibleRun: "\u200b".repeat(N),
  invisibleWord: "a\u00ad".repeat(N / 2),
  curlGlued: "curl -uu:".repeat(N / 9),
  curlGluedWord: `curl -u${"a".repeat(N)}`,
  curlLongPassword: `curl -u a:${"a".repeat(N)}`,
  curlLongPasswords: `curl ${"-u a:aa -u ".repeat(N / 10)}`,
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

// This process's CPU time, so other load on the machine does not count (a wall-clock reading taken
// while the process waited for a core made a linear detector look quadratic on a loaded machine).
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function fastest(run: () => void, times: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const t = cpuMs();
    run();
    best = Math.min(best, cpuMs() - t);
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
    "config entries <add key=… value=…": (n) => '<add key="ApiKey" value="v"/>'.repeat(n / 30),
    "invisible characters in keys": (n) => "pass\u200bword=x ".repeat(n / 17),
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
      // The lowest of three tries: one GC pause in a millisecond-long run can double a ratio, while a quadratic
      // reader stays near 16 in every try.
      let ratio = Number.POSITIVE_INFINITY;
      for (let attempt = 0; attempt < 3 && ratio >= 10; attempt++) {
        ratio = Math.min(ratio, best(large) / Math.max(best(small), 0.5));
      }
      expect(ratio, name).toBeLessThan(10);
    });
  }
});
