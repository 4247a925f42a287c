// Adversarial probes of redact's readers (pairs, values, markup, curl, fold) through the public redactText and
// redactValue: no string makes them throw, hostile shapes cost linear time, and ordinary JSON and code pass untouched.
import { redactText, redactValue } from "@toolware/packs/redact";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// Pieces the readers key on, so random strings reach their inner branches rather than only plain text.
const PIECES = [
  "password",
  "token",
  "api_key",
  "secret",
  ":=",
  "=",
  ":",
  "==",
  "!=",
  '"',
  "'",
  "`",
  "\\",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  "<",
  ">",
  "</",
  "/>",
  "<password>",
  '<add key="ApiKey" value="',
  ' type="x">',
  "<value>",
  "setPassword(",
  "\u200b",
  "</password>",
  "curl -u ",
  "-u",
  "--user",
  " ",
  "\n",
  "\t",
  "${",
  "$(",
  "ｐａｓｓｗｏｒｄ",
  "\u200b",
  "\ud800",
  "\udc00",
  "@",
  "://",
  "Bearer ",
  "sk-",
  "eyJ",
  ",",
  ";",
  "&",
  "#",
  "0x",
];
const piece = fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: "binary", maxLength: 6 }));
const hostileText = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(""));

describe("no string makes redaction throw", () => {
  it("redactText on binary strings, full Unicode strings and reader pieces (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.string({ unit: "grapheme" }), hostileText), (text) => {
        expect(typeof redactText(text)).toBe("string");
        expect(typeof redactText(text, { keys: ["custom"] })).toBe("string");
      }),
      { numRuns: 1500 },
    );
  });

  it("redactValue on objects whose keys and strings are hostile (property)", () => {
    const value = fc.dictionary(
      hostileText,
      fc.oneof(hostileText, fc.integer(), fc.array(hostileText, { maxLength: 3 })),
      {
        maxKeys: 5,
      },
    );
    fc.assert(
      fc.property(value, (v) => {
        const out = redactValue(v);
        expect(out).not.toBeUndefined();
        JSON.stringify(out);
      }),
      { numRuns: 500 },
    );
  });
});

// Keys no default list names, and strings of plain words: nothing in them is or looks like a secret.
const SAFE_KEYS = ["name", "title", "count", "items", "id", "kind", "note", "x", "y", "size", "list", "city"];
const word = fc.string({ unit: fc.constantFrom(..."abcdefghij klm"), maxLength: 10 });
const safeJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    word,
    fc.integer({ min: -100000, max: 100000 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...SAFE_KEYS), tie("value"), { maxKeys: 4 }),
  ),
})).value;

describe("ordinary text passes untouched", () => {
  it("JSON.stringify of objects without sensitive keys, compact and indented (property)", () => {
    fc.assert(
      fc.property(safeJson, fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(redactText(text)).toBe(text);
        expect(redactValue(value)).toEqual(value);
      }),
      { numRuns: 800 },
    );
  });

  it.each([
    "const total = items.reduce((sum, item) => sum + item.count, 0);",
    "if (a == b && c != d) { x := y; }",
    "x := 5\ny := x * 2",
    "<note><title>hello</title><count>3</count></note>",
    'print("hello", end="")',
    'curl -X POST https://example.com/api -d \'{"name": "a"}\'',
    "let passwordLength = 12; // how long",
    "for key, value in items.items(): print(key, value)",
  ])("code and markup stay as they are: %s", (text) => {
    expect(redactText(text)).toBe(text);
  });
});

describe("hostile shapes cost linear time", () => {
  const cpuMs = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const best = (text: string): number => {
    let min = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 4; i++) {
      const t = cpuMs();
      redactText(text);
      min = Math.min(min, cpuMs() - t);
    }
    return min;
  };
  // A ratio of times (4n against n) is independent of the machine: linear gives about 4, quadratic about 16.
  const SHAPES: Record<string, (n: number) => string> = {
    "one very long line": (n) => `password=${"a b".repeat(n / 3)}`,
    "unbalanced quotes": (n) => `token="${"'a\"".repeat(n / 3)}`,
    "unbalanced brackets": (n) => `api_key=${"([{".repeat(n / 3)}`,
    "closing brackets": (n) => `secret: ${")]}".repeat(n / 3)}`,
    "nested XML": (n) => `${"<password><a>".repeat(n / 26)}x${"</a></password>".repeat(n / 30)}`,
    "unclosed XML": (n) => `<password>${"<a b='".repeat(n / 6)}`,
    "repeated :=": (n) => `password${" :=".repeat(n / 3)} x`,
    "keys then :=": (n) => "token :=".repeat(n / 8),
    "curl -u and quotes": (n) => `curl -u '${"a'\"".repeat(n / 3)}`,
    "fullwidth keys": (n) => "ｔｏｋｅｎ：".repeat(n / 6),
    "invisible characters": (n) => `pass\u200bword=${"\u200b".repeat(n)}`,
    "escaped JSON keys": (n) => '{\\"token\\": '.repeat(n / 12),
    "CDATA openings": (n) => "<password><![CDATA[".repeat(n / 19),
    "CDATA never closed": (n) => `<password><![CDATA[${"]]".repeat(n / 2)}`,
    "CDATA closed, no end tag": (n) => "<password><![CDATA[x]]>".repeat(n / 23),
  };
  for (const [name, make] of Object.entries(SHAPES)) {
    it(name, () => {
      const small = make(40_000);
      const large = make(160_000);
      expect(typeof redactText(large)).toBe("string");
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

describe("readers' hostile shapes that once leaked", () => {
  it.each([
    ["<password><![CDATA[hunter2]]></password>", "<password><![CDATA[[REDACTED]]]></password>"],
    ["<ns:token>\n  <![CDATA[hunter2]]>\n</ns:token>", "<ns:token>\n  <![CDATA[[REDACTED]]]>\n</ns:token>"],
    ["<title><![CDATA[hello]]></title>", "<title><![CDATA[hello]]></title>"],
    [`<password><![CDATA[\${DB_PASSWORD}]]></password>`, `<password><![CDATA[\${DB_PASSWORD}]]></password>`],
    ["<password><![CDATA[hunter2]]></other>", "<password><![CDATA[hunter2]]></other>"],
    ["password := := hunter2", "password := := [REDACTED]"],
    ["token = = = hunter2", "token = = = [REDACTED]"],
    ["password: = 'hunter2'", "password: = '[REDACTED]'"],
    ["password == other", "password == [REDACTED]"],
  ])("%s", (text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it("CDATA inside a JSON string is redacted and the document stays valid", () => {
    const doc = JSON.stringify({ config: "<password><![CDATA[hunter2]]></password>" });
    const out = redactText(doc);
    expect(out).not.toContain("hunter2");
    expect(JSON.parse(out)).toEqual({ config: "<password><![CDATA[[REDACTED]]]></password>" });
  });
});
