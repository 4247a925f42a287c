// Synthetic secrets of each documented format, for the families whose public examples are few or
// generated at run time (gitleaks builds GitHub, GitLab, npm, PyPI and SendGrid examples from
// their formats). Formats: the providers' documentation as summarised in gitleaks' rule comments
// and detect-secrets' plugins. A fixed seed: every run tests the same values.

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const HEX = "0123456789abcdef";
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;
const LETTERS = ALNUM.slice(0, 52);

type Rnd = () => number;
const pick = (rnd: Rnd, chars: string, n: number): string => {
  let s = "";
  for (let i = 0; i < n; i++) s += chars[Math.floor(rnd() * chars.length)];
  return s;
};
const one = <T>(rnd: Rnd, list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
const digits = (rnd: Rnd, n: number): string => pick(rnd, "0123456789", n);
const b64url = (s: string): string => Buffer.from(s).toString("base64url");

/** `count` values of each generator, from one seed per family. */
function many(seed: number, count: number, make: (rnd: Rnd) => string): string[] {
  const rnd = prng(seed);
  return Array.from({ length: count }, () => make(rnd));
}

export function jwt(rnd: Rnd, signed: "signed" | "unsigned" | "two-part"): string {
  const alg = signed === "signed" ? one(rnd, ["HS256", "RS256", "ES384", "PS512"]) : "none";
  const header = b64url(JSON.stringify({ alg, typ: "JWT", kid: pick(rnd, ALNUM, 8) }));
  const payload = b64url(
    JSON.stringify({ sub: pick(rnd, ALNUM, 10), iat: 1_700_000_000 + Math.floor(rnd() * 1e7), role: "admin" }),
  );
  if (signed === "two-part") return `${header}.${payload}`;
  return `${header}.${payload}.${signed === "signed" ? pick(rnd, B64URL, 43) : ""}`;
}

export const SYNTHETIC: Readonly<Record<string, readonly string[]>> = {
  github: [
    ...many(11, 10, (r) => `${one(r, ["ghp", "gho", "ghu", "ghs", "ghr"])}_${pick(r, ALNUM, 36)}`),
    ...many(12, 4, (r) => `github_pat_${pick(r, ALNUM, 22)}_${pick(r, ALNUM, 59)}`),
  ],
  gitlab: [
    ...many(21, 4, (r) => `glpat-${pick(r, `${ALNUM}_-`, 20)}`),
    ...many(22, 3, (r) => `glpat-${pick(r, ALNUM, 27)}.${pick(r, "abcdefghijklmnopqrstuvwxyz0123456789", 9)}`),
    ...many(23, 12, (r) => {
      const [prefix, n] = one(r, [
        ["gldt-", 20],
        ["glft-", 20],
        ["glrt-", 20],
        ["glsoat-", 20],
        ["glffct-", 20],
        ["glimt-", 25],
        ["glagent-", 50],
        ["gloas-", 64],
        ["GR1348941", 20],
      ] as const);
      return `${prefix}${pick(r, ALNUM, n)}`;
    }),
    ...many(24, 2, (r) => `glptt-${pick(r, HEX, 40)}`),
    ...many(25, 2, (r) => `glcbt-${pick(r, ALNUM, 5)}_${pick(r, ALNUM, 20)}`),
  ],
  aws: many(31, 12, (r) => `${one(r, ["AKIA", "ASIA", "ABIA", "ACCA"])}${pick(r, UPPER32, 16)}`),
  slack: [
    ...many(41, 3, (r) => `xoxb-${digits(r, 13)}-${digits(r, 12)}-${pick(r, ALNUM, 24)}`),
    ...many(42, 3, (r) => `xoxp-${digits(r, 12)}-${digits(r, 13)}-${digits(r, 13)}-${pick(r, HEX, 32)}`),
    ...many(43, 3, (r) => `xoxe-1-${pick(r, ALNUM, 146)}`),
    ...many(44, 3, (r) => `xoxe.xox${one(r, ["b", "p"])}-1-${pick(r, ALNUM, 163)}`),
    ...many(45, 2, (r) => `xapp-1-A${digits(r, 10)}-${digits(r, 13)}-${pick(r, HEX, 64)}`),
  ],
  slackWebhook: many(
    46,
    6,
    (r) =>
      `https://hooks.slack.com/${one(r, ["services", "workflows"])}/T${pick(r, UPPER32, 8)}/B${pick(r, UPPER32, 8)}/${pick(r, ALNUM, 24)}`,
  ),
  stripe: many(
    51,
    8,
    (r) => `${one(r, ["sk", "rk"])}_${one(r, ["live", "test", "prod"])}_${pick(r, ALNUM, 24 + Math.floor(r() * 75))}`,
  ),
  google: many(61, 8, (r) => `AIza${pick(r, `${ALNUM}_-`, 35)}`),
  jwt: [
    ...many(71, 6, (r) => jwt(r, "signed")),
    ...many(72, 4, (r) => jwt(r, "unsigned")),
    ...many(73, 4, (r) => jwt(r, "two-part")),
  ],
  jwtBase64: many(74, 8, (r) => Buffer.from(jwt(r, one(r, ["signed", "unsigned"] as const))).toString("base64")),
  openai: [
    ...many(
      81,
      4,
      (r) => `sk-${one(r, ["proj", "svcacct", "admin"])}-${pick(r, B64URL, 58)}T3BlbkFJ${pick(r, B64URL, 58)}`,
    ),
    ...many(82, 3, (r) => `sk-ant-${one(r, ["api03", "admin01"])}-${pick(r, B64URL, 93)}AA`),
  ],
  huggingface: many(91, 6, (r) => `${one(r, ["hf", "api_org"])}_${pick(r, LETTERS, 34)}`),
  npm: many(101, 8, (r) => `npm_${pick(r, ALNUM, 36)}`),
  pypi: many(111, 4, (r) => `pypi-AgEIcHlwaS5vcmc${pick(r, `${ALNUM}_-`, 70 + Math.floor(r() * 100))}`),
  sendgrid: many(121, 6, (r) => `SG.${pick(r, `${ALNUM}_-`, 22)}.${pick(r, `${ALNUM}_-`, 43)}`),
  privateKey: many(131, 8, (r) => {
    const kind = one(r, ["", "RSA ", "EC ", "DSA ", "OPENSSH ", "ENCRYPTED "]);
    const body = Array.from({ length: 3 + Math.floor(r() * 5) }, () => pick(r, B64, 64)).join("\n");
    return `-----BEGIN ${kind}PRIVATE KEY-----\n${body}\n-----END ${kind}PRIVATE KEY-----`;
  }),
  // Passwords with the characters that used to end a value early (`&`, `(`, `,`, `{`, `;`, `#`).
  generic: many(
    141,
    24,
    (r) =>
      `${pick(r, ALNUM, 6)}${one(r, ["&", "(", ")", ",", "{", "}", ";", "#", "!", "$", "%", "[", "]", "*", "~", "^"])}${pick(r, ALNUM, 4)}${one(r, ["&3x", "(x)", "!", "#1", ",b", "=="])}`,
  ),
  basicAuthUrl: many(151, 10, (r) => {
    const scheme = one(r, ["postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp", "https", "ftp", "smtp"]);
    return `${scheme}://${pick(r, LETTERS, 6).toLowerCase()}:${pick(r, ALNUM, 16)}@db${digits(r, 2)}.example.net:5432/app`;
  }),
  authToken: many(161, 12, (r) => pick(r, `${ALNUM}._~+/-`, 24 + Math.floor(r() * 40))),
};

/** Scheme words of `Authorization` headers, known and not. */
export const AUTH_SCHEMES: readonly string[] = [
  "Bearer",
  "Basic",
  "Token",
  "Api-Token",
  "SSWS",
  "Splunk",
  "GenieKey",
  "DSN",
  "X-Custom",
  "Key",
];
