// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell and template references are the data here
// The redact corpus: the public examples of gitleaks and detect-secrets (see their folders) and
// synthetic values of the documented formats, grouped into the families redact claims, each
// written into the places a secret appears in tool results: a sentence, and a `key: value` line in
// each assignment and markup syntax. `measure` runs a redactor over it; corpus.test.ts asserts the
// figures and bench/src/redact-recall.ts prints them.
import { randomUUID } from "node:crypto";
import * as ds from "./detect-secrets/test-fixtures.js";
import * as gl from "./gitleaks/test-fixtures.js";
import { ACCEPTED } from "./measure/test-fixtures.js";
import { AUTH_SCHEMES, prng, SYNTHETIC } from "./synthetic/test-fixtures.js";

export { SOURCE as DETECT_SECRETS_SOURCE } from "./detect-secrets/test-fixtures.js";
export { SOURCE as GITLEAKS_SOURCE } from "./gitleaks/test-fixtures.js";

/** One text with the part of it that must not survive. */
export interface Case {
  readonly text: string;
  readonly secret: string;
}

const S = SYNTHETIC as Record<string, readonly string[]>;
const F = ds.FLAGGED as Record<string, readonly string[]>;

/** The values of each token family (whole values: all of it must go). */
const TOKENS: Readonly<Record<string, readonly string[]>> = {
  AWS: [...gl.AWS_KEYS, ...(F.aws ?? []), ...(S.aws ?? [])],
  GitHub: [...(F.github ?? []), ...(S.github ?? [])],
  GitLab: [...(F.gitlab ?? []), ...(S.gitlab ?? [])],
  Slack: [...gl.SLACK_TOKENS, ...(F.slack ?? []), ...(S.slack ?? [])],
  Stripe: [...gl.STRIPE_KEYS, ...(F.stripe ?? []), ...(S.stripe ?? [])],
  Google: [...gl.GOOGLE_API_KEYS, ...(S.google ?? [])],
  "OpenAI / Anthropic": [...gl.OPENAI_ANTHROPIC_KEYS, ...(F.openai ?? []), ...(S.openai ?? [])],
  JWT: [...gl.JWTS, ...(F.jwt ?? []), ...(S.jwt ?? [])],
  "JWT (base64)": [...(S.jwtBase64 ?? [])],
  "Hugging Face": [...gl.HUGGINGFACE_TOKENS, ...(S.huggingface ?? [])],
  npm: [...(S.npm ?? [])],
  PyPI: [...(S.pypi ?? [])],
  SendGrid: [...(F.sendgrid ?? []), ...(S.sendgrid ?? [])],
};

/** `{k}` is the key, `{s}` the secret. Bare syntaxes only take values without blanks. */
const QUOTED_SYNTAXES = [
  '{k} = "{s}"',
  "{k}: '{s}'",
  '{k}: "{s}"',
  '"{k}": "{s}"',
  '{"{k}": "{s}", "user": "bob"}',
  '{k} := "{s}"',
  "{k} := `{s}`",
  '{k} ::= "{s}"',
  '{k} :::= "{s}"',
  '{k} ?= "{s}"',
  '{k} += "{s}"',
  '${k} .= "{s}";',
  '"{k}" => "{s}",',
  '  "{k}" => "{s}"',
  'var {k} string = "{s}"',
  'const {k}: string = "{s}";',
  'String {k} = "{s}";',
  '{k}: str = "{s}"',
  'password = @"{s}";',
  "<{k}>{s}</{k}>",
  "<{k}>\n    {s}\n</{k}>",
  'System.setProperty("{K}", "{s}")',
  'ENV["{K}"] = "{s}"',
  '<{k} type="plain">{s}</{k}>',
  "<ns:{k}><value>{s}</value></ns:{k}>",
  '<add key="{k}" value="{s}"/>',
  '<user name="bob" {k}="{s}"/>',
  'config.set{C}("{s}");',
];
const BARE_SYNTAXES = [
  '{"config.ini": "{K}={s}\\nBACKUP_ENABLED=true"}',
  "{k}: {s}",
  "{k}={s}",
  "{k} = {s}",
  "export {K}={s}",
  "--{k}={s}",
  "{K}={s} next",
  "ｄｅｐｌｏｙ＿ｔｏｋｅｎ＝{s}",
  "pass\u200bword={s}",
  "curl -ubob:{s} https://example.com",
];

function fill(template: string, key: string, secret: string): string {
  const upper = key.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
  const capital = key.charAt(0).toUpperCase() + key.slice(1);
  return template.replaceAll("{k}", key).replaceAll("{K}", upper).replaceAll("{C}", capital).replaceAll("{s}", secret);
}

/** A secret in a sentence and in every syntax, under the key `key`. */
function everywhere(secret: string, key: string, sentence: boolean): Case[] {
  const out: Case[] = sentence ? [{ text: `The deploy uses ${secret} for the release.`, secret }] : [];
  const bare = !/\s/.test(secret);
  for (const t of [...QUOTED_SYNTAXES, ...(bare ? BARE_SYNTAXES : [])])
    out.push({ text: fill(t, key, secret), secret });
  return out;
}

const KEYS = [
  "password",
  "api_key",
  "client_secret",
  "apiToken",
  "DB_PASSWORD",
  "aws_secret_access_key",
  "private_key",
];

function slackWebhookCases(): Case[] {
  return [...gl.SLACK_WEBHOOKS, ...(F.slackWebhook ?? []), ...(S.slackWebhook ?? [])].flatMap((url) => {
    const secret = url.slice(url.indexOf("hooks.slack.com/"));
    return [
      { text: `Post to ${url} when done.`, secret },
      { text: `SLACK_WEBHOOK_URL=${url}`, secret },
      { text: `{"webhook": "${url}"}`, secret },
    ];
  });
}

function urlCases(): Case[] {
  return [...(F.basicAuth ?? []), ...(S.basicAuthUrl ?? [])].flatMap((url) => {
    const secret = url.slice(url.lastIndexOf(":", url.indexOf("@")) + 1, url.indexOf("@"));
    return [
      { text: `Connect with ${url} and retry.`, secret },
      { text: `DATABASE_URL=${url}`, secret },
      { text: `{"dsn": "${url}"}`, secret },
    ];
  });
}

// The secret of each gitleaks curl-auth-user line (the password, or the user when it is the key).
const CURL_SECRETS = [
  "P@ssw0rd$1",
  "d2LkV78zLx!t",
  "d2LkV78zLx!t",
  "h0pk1ns~21s",
  "pQ9wTxu4Fg",
  "dB2yF6@qL9vZm1P#4J",
  "ZqL5kVrX1n8tA2",
  "pRf7vG2h1L8nQkW9",
];

function curlCases(): Case[] {
  const fromGitleaks = gl.CURL_USER_LINES.map((text, i) => ({ text, secret: CURL_SECRETS[i] as string }));
  const synthetic = (S.generic ?? []).slice(0, 12).flatMap((pw, i) => [
    { text: `curl -u admin${i}:'${pw}' https://api.example.com/v1`, secret: pw },
    { text: `curl -sS --user "deploy:${pw}" -X POST https://ci.example.com/hook`, secret: pw },
    {
      text: `curl --user=svc:${pw.replace(/[&;(){}[\]#$!*~^%,]/g, "x")} https://x.example.com`,
      secret: pw.replace(/[&;(){}[\]#$!*~^%,]/g, "x"),
    },
    {
      text: `curl -X GET \\\n  -u "${(S.stripe ?? [])[i % 8]}:" https://api.stripe.com/v1/charges`,
      secret: (S.stripe ?? [])[i % 8] as string,
    },
  ]);
  return [...fromGitleaks, ...synthetic];
}

function authorizationCases(): Case[] {
  const tokens = S.authToken ?? [];
  const out: Case[] = [];
  tokens.forEach((token, i) => {
    const scheme = AUTH_SCHEMES[i % AUTH_SCHEMES.length] as string;
    for (const t of [
      "Authorization: {h} {s}",
      "curl -H 'Authorization: {h} {s}' https://api.example.com",
      "Proxy-Authorization: {h} {s}",
      "authorization={h} {s}",
    ]) {
      out.push({ text: t.replaceAll("{h}", scheme).replaceAll("{s}", token), secret: token });
    }
  });
  // gitleaks' curl-auth-header tps: the credential is the last word of the header value.
  for (const line of gl.CURL_HEADER_LINES) {
    const m = /(?:Authorization|Token|ApiKey|apikey):\s*(?:[A-Za-z-]+ )?([^\s'"]+)/.exec(line);
    if (m?.[1] !== undefined) out.push({ text: line, secret: m[1] });
  }
  return out;
}

function privateKeyCases(): Case[] {
  return (S.privateKey ?? []).flatMap((pem) => {
    const secret = (pem.split("\n")[1] as string).slice(0, 40);
    return [
      { text: `key:\n${pem}\nend`, secret },
      { text: JSON.stringify({ type: "service_account", private_key: `${pem}\n` }), secret },
      { text: `PRIVATE_KEY="${pem.replaceAll("\n", "\\n")}"`, secret },
    ];
  });
}

function keyValueCases(): Case[] {
  const { common, withSpaces, letters } = ds.KEYWORD_SECRETS;
  const values = [common, letters, ...(S.generic ?? []), ...(F.awsSecret ?? []), ...(F.npm ?? [])];
  const out = values.flatMap((v, i) => everywhere(v, KEYS[i % KEYS.length] as string, false));
  out.push(...QUOTED_SYNTAXES.map((t) => ({ text: fill(t, "password", withSpaces), secret: withSpaces })));
  for (const line of gl.GENERIC_LINES)
    out.push({ text: line, secret: (/:\s*"([^"]+)"/.exec(line)?.[1] ?? line) as string });
  out.push(...(F.npm ?? []).map((v) => ({ text: `//registry.npmjs.org/:_authToken=${v}`, secret: v })));
  return out;
}

/** Every family redact claims, with its cases. */
export function families(): Record<string, Case[]> {
  const out: Record<string, Case[]> = {};
  for (const [name, values] of Object.entries(TOKENS))
    out[name] = values.flatMap((v) => everywhere(v, "deploy_token", true));
  out["Slack webhooks"] = slackWebhookCases();
  out["URL passwords"] = urlCases();
  out["curl -u"] = curlCases();
  out.Authorization = authorizationCases();
  out["Private keys"] = privateKeyCases();
  out["Sensitive key = value"] = keyValueCases();
  return out;
}

export { ACCEPTED, type FamilyFigures, leaks, measure } from "./measure/test-fixtures.js";

/** A text that holds no secret and must come out unchanged, with the kind of damage it probes. */
export interface DamageCase {
  readonly kind: string;
  readonly text: string;
}

const hex = (rnd: () => number, n: number): string => {
  let s = "";
  for (let i = 0; i < n; i++) s += "0123456789abcdef"[Math.floor(rnd() * 16)];
  return s;
};

/** Non-secrets in the shapes the issue lists, and the scanners' own false positives. */
export function damageCases(digests = 2000): DamageCase[] {
  const rnd = prng(7);
  const out: DamageCase[] = [];
  const add = (kind: string, texts: readonly string[]) => out.push(...texts.map((text) => ({ kind, text })));
  add("shell references", [
    "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
    "export NPM_TOKEN=${NPM_TOKEN}",
    "TOKEN=$(cat /run/secrets/token)",
    'PASSWORD="$(vault kv get -field=password secret/db)"',
    "api_key: $API_KEY",
    "password: ${link}",
    "password[] = ${link}",
    'client_secret = "${{ secrets.CLIENT_SECRET }}"',
    'token: "{{ .Values.token }}"',
    "Authorization: Bearer $(gcloud auth print-access-token)",
    "Authorization: Bearer $API_KEY",
    "Authorization: Bearer <Openverse API token>",
    "SECRET_KEY=%SECRET_KEY%",
  ]);
  add("expressions", [
    "credentials: new AWS.SharedIniFileCredentials({ profile: 'dev' })",
    "const token = process.env.GITHUB_TOKEN;",
    "password = os.environ['DB_PASSWORD']",
    "password = os.getenv('DB_PASSWORD')",
    ".map(token => token.trim())",
    "api_key = null",
    "secret: None",
  ]);
  add("assignments with other keys", [
    'x := "hello world"',
    'name ::= "value"',
    'retries ?= "3"',
    'var title string = "Dashboard"',
    "<title>Release notes</title>",
    'System.setProperty("java.awt.headless", "true")',
    'ENV["RAILS_ENV"] = "production"',
    '<input type="password" name="pw">',
    '<add key="Timeout" value="30"/>',
    '<div class="secret">shown to everyone</div>',
    'setTitle("Dashboard")',
    "curl -uadmin https://example.com",
    "tokens: 1500, max_tokens: 10, token_type: bearer",
  ]);
  add("detect-secrets non-secrets", [...ds.KEYWORD_NON_SECRETS, ...ds.NOT_FLAGGED]);
  add(
    "gitleaks curl false positives",
    gl.CURL_USER_FALSE_POSITIVES.filter((t) => !ACCEPTED.has(t)),
  );
  add(
    "gitleaks curl header false positives",
    gl.CURL_HEADER_FALSE_POSITIVES.filter((t) => !ACCEPTED.has(t)),
  );
  add(
    "gitleaks generic false positives",
    gl.GENERIC_FALSE_POSITIVES.filter((t) => !ACCEPTED.has(t)),
  );
  const digestsOf = (n: number) => Array.from({ length: n }, () => hex(rnd, 64));
  add(
    "sha256 digests",
    digestsOf(digests).map((d) => `sha256:${d}`),
  );
  add(
    "sha1 and md5 digests",
    Array.from({ length: digests / 2 }, () => `${hex(rnd, 40)} ${hex(rnd, 32)}`),
  );
  add(
    "UUIDs",
    Array.from({ length: digests }, () => `id ${randomUUID()} ok`),
  );
  // E-mail addresses are hidden on purpose: they are personal data, not damage.
  return out.filter((d) => !/[\w.+-]+@[\w-]+\.[a-z]{2,}/i.test(d.text));
}
