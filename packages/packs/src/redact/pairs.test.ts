// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell and template references are the inputs here
import { describe, expect, it } from "vitest";
import { foldedView } from "./fold.js";
import { redactText, redactValue } from "./index.js";

// Exact outputs for the syntaxes the corpus test measures in bulk (corpus/corpus.test.ts).
describe("sensitive pairs: operators, declarations and markup", () => {
  it.each([
    ['API_TOKEN := "abc123"', 'API_TOKEN := "[REDACTED]"'],
    ["API_TOKEN := `abc123`", "API_TOKEN := `[REDACTED]`"],
    ['API_TOKEN ::= "abc123"', 'API_TOKEN ::= "[REDACTED]"'],
    ['API_TOKEN :::= "abc123"', 'API_TOKEN :::= "[REDACTED]"'],
    ['API_TOKEN ?= "abc123"', 'API_TOKEN ?= "[REDACTED]"'],
    ["API_TOKEN += abc123", "API_TOKEN += [REDACTED]"],
    ['$apiToken .= "abc123";', '$apiToken .= "[REDACTED]";'],
    ['  "apiToken" => "abc123",', '  "apiToken" => "[REDACTED]",'],
    ['if (api_key == "abc123") {', 'if (api_key == "[REDACTED]") {'],
    ['if (db_pass !== "abc123") {', 'if (db_pass !== "[REDACTED]") {'],
    ["@token ||= 'abc123'", "@token ||= '[REDACTED]'"],
    ['$token ??= "abc123";', '$token ??= "[REDACTED]";'],
    ['var apiKey string = "abc123"', 'var apiKey string = "[REDACTED]"'],
    ['const apiKey: string = "abc123";', 'const apiKey: string = "[REDACTED]";'],
    ['password: str = "abc123"', 'password: str = "[REDACTED]"'],
    ['String password = "abc123";', 'String password = "[REDACTED]";'],
    ['password = @"abc123";', 'password = @"[REDACTED]";'],
    ['ENV["API_TOKEN"] = "abc123"', 'ENV["API_TOKEN"] = "[REDACTED]"'],
    ["$_ENV['DB_PASSWORD'] = 'abc123';", "$_ENV['DB_PASSWORD'] = '[REDACTED]';"],
    ["<password>abc123</password>", "<password>[REDACTED]</password>"],
    ["<db:Password>\n  abc123\n</db:Password>", "<db:Password>\n  [REDACTED]\n</db:Password>"],
    ['System.setProperty("API_TOKEN", "abc123")', 'System.setProperty("API_TOKEN", "[REDACTED]")'],
    ["headers.set('Authorization', 'abc123')", "headers.set('Authorization', '[REDACTED]')"],
    ["--password=hunter2 --user=bob", "--password=[REDACTED] --user=bob"],
    ["ｐａｓｓｗｏｒｄ＝abc123", "ｐａｓｓｗｏｒｄ＝[REDACTED]"],
    ["ᴾᵃˢˢʷᵒʳᵈ: abc123", "ᴾᵃˢˢʷᵒʳᵈ: [REDACTED]"],
  ])("%j", (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each([
    ["password=Tr0ub4dor&3x", "password=[REDACTED]"],
    ["apikey = m{{h}o)p${e]nob(ody[finds>-_$#thisone}}", "apikey = [REDACTED]"],
    ["password=ab)cd next", "password=[REDACTED] next"],
    ["f(password=abc) g", "f(password=[REDACTED]) g"],
    ["https://x.test/cb?access_token=abc&state=ok", "https://x.test/cb?access_token=[REDACTED]&state=ok"],
    ["Server=db;User Id=sa;Password=Secr3t!;Encrypt=true", "Server=db;User Id=sa;Password=[REDACTED];Encrypt=true"],
    ["{PATH=/bin, X_PASSWORD=s3cr3t, LC_CTYPE=en}", "{PATH=/bin, X_PASSWORD=[REDACTED], LC_CTYPE=en}"],
    ['"apiKey":12345,"card"', '"apiKey":"[REDACTED]","card"'],
    ["password: hunter2.", "password: [REDACTED]."],
    ["password=${PASSWORD:-hunter2}", "password=[REDACTED]"],
    ["password: $Secr3t", "password: [REDACTED]"],
    // More than references joined: a value.
    ["password=--_$0_", "password=[REDACTED]"],
    ["password: -$API_KEY", "password: [REDACTED]"],
  ])("a bare value runs to its real end: %j", (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each([
    'x := "hello"',
    "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
    "TOKEN=$(cat /run/secrets/token)",
    "credentials: new AWS.Credentials()",
    "const token = process.env.GITHUB_TOKEN;",
    "items.map(token => token.trim())",
    "api_key: $API_KEY",
    'password: "$1:$2"',
    "password=${USER}:${PASS}",
    'client_secret = "${{ secrets.CLIENT_SECRET }}"',
    "<token>${TOKEN}</token>",
    'setProperty("password", pwd)',
    "password: null",
    "Authorization: Bearer $(gcloud auth print-access-token)",
    "Authorization: Bearer <your token>",
  ])("leaves %j alone", (input) => {
    expect(redactText(input)).toBe(input);
  });

  it("keeps any scheme word of an Authorization header and hides the credential", () => {
    expect(redactText("Authorization: Api-Token 22cb987851bc")).toBe("Authorization: Api-Token [REDACTED]");
    expect(redactText("Proxy-Authorization: SSWS 00abcDEF")).toBe("Proxy-Authorization: SSWS [REDACTED]");
    expect(redactText("Authorization: 5eb4223e-5008")).toBe("Authorization: [REDACTED]");
    // A second pass finds nothing more to do.
    expect(redactText("Authorization: Api-Token [REDACTED]")).toBe("Authorization: Api-Token [REDACTED]");
  });

  it("reads key names written in compatibility forms in values too", () => {
    expect(redactValue({ ｐａｓｓｗｏｒｄ: "x", ｔｏｋｅｎｓ: 3 })).toEqual({
      ｐａｓｓｗｏｒｄ: "[REDACTED]",
      ｔｏｋｅｎｓ: 3,
    });
  });
});

describe("curl -u", () => {
  it.each([
    ["curl -u elastic:P@ssw0rd$1 https://x", "curl -u elastic:[REDACTED] https://x"],
    ["curl --user  'johns:h0pk1ns~21s' $URL", "curl --user  'johns:[REDACTED]' $URL"],
    ['curl --user "{a}":"{b1}" -H x', 'curl --user "{a}":"[REDACTED]" -H x'],
    ["curl --user kevin:'pRf7vG2h' -iX PATCH", "curl --user kevin:'[REDACTED]' -iX PATCH"],
    ['curl -X GET \\\n  -u "sk_x_abc:" https://api', 'curl -X GET \\\n  -u "[REDACTED]:" https://api'],
    ["curl --proxy-user bob:pw1 http://x", "curl --proxy-user bob:[REDACTED] http://x"],
  ])("%j", (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each([
    'curl -u "$USER:$PASS" https://x',
    'curl -X POST --user "$(cat ./login.txt):$(cat ./password.txt)"',
    "curl -u <user:password> https://x",
    'curl -u ":" https://x',
    'curl -u "myusername" https://x',
    "docker run -u 1000:1000 img",
    "sort -u a:b",
  ])("leaves %j alone", (input) => {
    expect(redactText(input)).toBe(input);
  });
});

describe("foldedView", () => {
  it("folds every BMP character whose NFKC form is one ASCII character, and keeps the length", () => {
    const missed: string[] = [];
    let all = "";
    for (let c = 0x80; c < 0x10000; c++) {
      if (c >= 0xd800 && c < 0xe000) continue;
      const ch = String.fromCharCode(c);
      const n = ch.normalize("NFKC");
      if (n.length === 1 && n.charCodeAt(0) < 128) {
        all += ch;
        if (foldedView(ch) !== n) missed.push(c.toString(16));
      }
    }
    expect(missed).toEqual([]);
    expect(foldedView(all).length).toBe(all.length);
    expect(foldedView("plain text")).toBe("plain text");
  });
});
