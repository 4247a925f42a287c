// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell and template references are the inputs here
// The XML forms, setter calls, invisible key characters and curl spellings the pairs search does not
// see, through the public redactText: exact outputs, and ordinary markup left as it is.
import { redactText } from "@toolware/packs/redact";
import { describe, expect, it } from "vitest";

const R = "[REDACTED]";

describe("XML elements and attributes", () => {
  it.each([
    ['<password type="plain">hunter2</password>', `<password type="plain">${R}</password>`],
    ['<secret id="1">s3cr3t</secret>', `<secret id="1">${R}</secret>`],
    ["<ns:password>hunter2</ns:password>", `<ns:password>${R}</ns:password>`],
    ["<ns:password xmlns:ns='urn:x'> hunter2 </ns:password>", `<ns:password xmlns:ns='urn:x'> ${R} </ns:password>`],
    ["<password><value>hunter2</value></password>", `<password><value>${R}</value></password>`],
    ["<apiKey>\n  <string>k-123</string>\n</apiKey>", `<apiKey>\n  <string>${R}</string>\n</apiKey>`],
    ['<add key="ApiKey" value="s3cr3t-value"/>', `<add key="ApiKey" value="${R}"/>`],
    ['<add name="DbPassword" value="pw-1" />', `<add name="DbPassword" value="${R}" />`],
    ["<add value='v-1' key='client_secret'/>", `<add value='${R}' key='client_secret'/>`],
    ['<user name="bob" password="hunter2"/>', `<user name="bob" password="${R}"/>`],
    ['<input name="password" value="hunter2">', `<input name="password" value="${R}">`],
  ])("%s", (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each([
    "<title>Passwords</title>",
    '<input type="password" name="pw">',
    '<input type="password" name="password">',
    '<label for="password">Password</label>',
    '<add key="Timeout" value="30"/>',
    '<add key="ApiKey" value="${API_KEY}"/>',
    '<password type="plain">${PASSWORD}</password>',
    '<div class="secret">shown to everyone</div>',
    "<password><value>a</value><value>b</value></password>",
    '<password type="plain"></password>',
    "a < b && c > d",
  ])("leaves %s alone", (input) => {
    expect(redactText(input)).toBe(input);
  });

  it("keeps a JSON document parseable", () => {
    const doc = JSON.stringify({ xml: '<add key="ApiKey" value="s3cr3t"/><password type="x">hunter2</password>' });
    const out = redactText(doc);
    expect(JSON.parse(out)).toEqual({ xml: `<add key="ApiKey" value="${R}"/><password type="x">${R}</password>` });
  });
});

describe("setter calls", () => {
  it.each([
    ['setPassword("hunter2")', `setPassword("${R}")`],
    ["config.setApiKey('k-123');", `config.setApiKey('${R}');`],
    ['builder.withToken( "t-1" ).build()', `builder.withToken( "${R}" ).build()`],
    ['set_client_secret("cs")', `set_client_secret("${R}")`],
  ])("%s", (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each([
    'settle("x")',
    'setTitle("hunter2")',
    "setPassword(password)",
    'setPassword("")',
    'setPassword(process.env.PASSWORD ?? "")',
    'withToken("${TOKEN}")',
    'resetPassword("bob")',
  ])("leaves %s alone", (input) => {
    expect(redactText(input)).toBe(input);
  });
});

describe("invisible characters inside a key", () => {
  it.each(["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"])("U+%s", (c) => {
    expect(redactText(`pass${c}word=hunter2`)).toBe(`pass${c}word=${R}`);
    expect(redactText(`api${c}_key: "k-1"`)).toBe(`api${c}_key: "${R}"`);
  });

  it("keeps them in the output and leaves other keys alone", () => {
    expect(redactText("na\u200bme=bob pass\u200bword=x")).toBe(`na\u200bme=bob pass\u200bword=${R}`);
    expect(redactText("\u200bhello\u00adworld")).toBe("\u200bhello\u00adworld");
  });
});

describe("curl credentials glued to their option", () => {
  it.each([
    ["curl -uuser:pass https://x", `curl -uuser:${R} https://x`],
    ["curl --user=user:pass https://x", `curl --user=user:${R} https://x`],
    ["curl -Uproxy:pw -x p https://x", `curl -Uproxy:${R} -x p https://x`],
    ['curl -u"bob:s3 cret" https://x', `curl -u"bob:${R}" https://x`],
    [`curl -u bob:${"p".repeat(2000)} https://x`, `curl -u bob:${R} https://x`],
  ])("%s", (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each(["sort -uk1:2 file", 'curl -u"$USER:$PASS" https://x', "curl -uuser https://x"])(
    "leaves %s alone",
    (input) => {
      expect(redactText(input)).toBe(input);
    },
  );
});
