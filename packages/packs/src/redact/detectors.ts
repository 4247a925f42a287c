/*
 * The built-in detectors. Every one runs in time linear in the input: V8's
 * regex engine backtracks, so each pattern is built to leave it nothing to try.
 *
 * - Each pattern starts with a literal or with a lookbehind that refuses to
 *   start inside a run of the characters it consumes, so a long run is entered
 *   from one position only (not from each of its n positions, which is what
 *   makes `\w+@` quadratic on "aaaa…").
 * - Inside a pattern, every quantified class is followed by a character it
 *   cannot contain (`[\w-]+` then `\.`), so giving characters back can never
 *   produce a new match; there are no nested quantifiers over overlapping
 *   classes and no alternatives that can match the same text.
 * - What a regex cannot do linearly is done by hand: key/value pairs match only
 *   `key:` and read the value with a sticky regex when the key is sensitive;
 *   card numbers are runs of digit groups checked in code (at most 19 digits per
 *   window); private-key blocks are found with indexOf.
 * The tests run each detector on 100 000-character adversarial strings.
 */
import { normalizeName } from "@toolware/core";
import { keyFinder, type SecretKeyTest } from "./pairs.js";

export { redactPairs, type SecretKeyTest } from "./pairs.js";

/** What a redaction hides. */
export type RedactKind = "secret" | "email" | "card" | "custom";

export type Placeholders = Readonly<Record<RedactKind, string>>;

/**
 * Provider key shapes. The formats are those the providers and the public rule sets of gitleaks
 * and detect-secrets document; the patterns are written here. Each starts with its literal prefix
 * and then checks, looking back, that the prefix does not continue a word (`(?<![\w-]npm_)` after
 * `npm_`): a pattern that starts with a literal lets the engine skip to the places the prefix
 * occurs, where a leading look-behind would be tried at every position of the text.
 */
export const TOKEN_PATTERNS: readonly RegExp[] = [
  // OpenAI / Anthropic style: sk-…, sk-proj-…, sk-ant-api03-… (needs a digit, so "sk-learn-tutorial" is left alone)
  /sk-(?<![\w-]sk-)(?=[\w-]*\d)[\w-]{20,}/g,
  // Stripe secret and restricted keys, webhook secrets
  /[sr]k_(?<![\w-][sr]k_)(?:live|test|prod)_[A-Za-z0-9]{10,}/g,
  /whsec_(?<![\w-]whsec_)[A-Za-z0-9]{16,}/g,
  // GitHub tokens and fine-grained PATs
  /gh[pousr]_(?<![\w-]gh[pousr]_)[A-Za-z0-9]{30,}/g,
  /github_pat_(?<![\w-]github_pat_)\w{30,}/g,
  // GitLab: personal, project, group and deploy tokens, runner, CI job, OAuth, feed, mail, agent, SCIM…
  /gl(?:pat|ptt|dt|rt|cbt|ft|imt|agent|oas|soat|ffct|wt|rrt)-(?<![\w-]gl[a-z]{2,5}-)[\w-]{20,}(?:\.[\w-]{2,})?/g,
  /GR1348941(?<![\w-]GR1348941)[\w-]{20,}/g,
  // AWS access key ids, Bedrock API keys
  /A(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])(?<![A-Z0-9]A(?:KIA|SIA|BIA|CCA|3T[A-Z0-9]))[A-Z0-9]{16}(?![A-Z0-9])/g,
  /ABSK(?<![\w-]ABSK)[A-Za-z0-9+/]{100,}={0,2}/g,
  // Slack tokens (bot, user, app, refresh, configuration, legacy) and webhook URLs (the path is the secret)
  /(?:xox[abposre]|xoxe\.xox[bp]|xapp)-(?<![\w-](?:xox[abposre]|xoxe\.xox[bp]|xapp)-)[A-Za-z0-9-]{10,}/g,
  /hooks\.slack\.com\/(?<![\w-]hooks\.slack\.com\/)(?:services|workflows|triggers)\/[\w/-]{16,}/g,
  // npm, PyPI, SendGrid, Hugging Face
  /npm_(?<![\w-]npm_)[A-Za-z0-9]{36}(?![\w-])/g,
  /pypi-AgE(?<![\w-]pypi-AgE)[\w-]{50,}/g,
  /SG\.(?<![\w-]SG\.)[\w-]{16,}\.[\w-]{16,}/g,
  /hf_(?<![\w-]hf_)[A-Za-z0-9]{30,}/g,
  // Google API keys
  /AIza(?<![\w-]AIza)[\w-]{35}(?![\w-])/g,
  // JSON Web Tokens: base64url parts, the first two starting with "eyJ" ({"); the signature may be
  // missing (an unsigned token, `alg: none`, ends in "." or has two parts only)
  /eyJ(?<![\w-]eyJ)[\w-]{5,}\.eyJ[\w-]{5,}(?:\.[\w-]*)?/g,
  // A JWT encoded once more in base64 ("eyJ" is "ZXlK")
  /ZXlK(?<![\w-]ZXlK)[A-Za-z0-9+/]{40,}={0,2}/g,
];

/**
 * Shapes run only when the text holds a rarer part of them (one `indexOf`): in the alternation, a
 * branch starting with `a` would be tried at every letter of "aaaa…".
 */
export const GATED_TOKEN_PATTERNS: readonly (readonly [string, RegExp])[] = [
  // Hugging Face organisation tokens
  ["_org_", /api_org_(?<![\w-]api_org_)[A-Za-z0-9]{30,}/g],
];

/** The token patterns as one alternation: one scan of the text instead of one per provider. */
export const TOKEN_PASSES: readonly RegExp[] = [new RegExp(TOKEN_PATTERNS.map((re) => re.source).join("|"), "g")];

/** Replaces every provider token of `text` with `literal` (a replacement string with `$` escaped). */
export function redactTokens(text: string, literal: string): string {
  let s = text;
  for (const re of TOKEN_PASSES) s = s.replace(re, literal);
  for (const [gate, re] of GATED_TOKEN_PATTERNS) if (s.includes(gate)) s = s.replace(re, literal);
  return s;
}

/** `scheme://user:password@host`: keeps the user, hides the password. */
export const URL_CREDENTIALS =
  /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{0,31}:\/\/[^\s/?#@:"'`<>]{0,256}:)[^\s/?#@"'`<>]{1,256}(?=@)/g;

/** `Bearer <token>` (case-insensitive): keeps the word, hides the token. */
export const BEARER = /(?<![\w-])(bearer[ \t]+)[\w.~+/-]{16,}=*/gi;

/** An e-mail address. */
export const EMAIL = /(?<![\w.%+-])[\w.%+-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?![\w-])/g;

/**
 * Key names whose values are secrets (matched on the whole key or its last words, normalised).
 *
 * @example
 * ```ts
 * DEFAULT_SECRET_KEYS.includes("password"); // true: always on; redact({ keys }) adds more
 * ```
 */
export const DEFAULT_SECRET_KEYS: readonly string[] = [
  "password",
  "passwd",
  "pwd",
  "pass",
  "passphrase",
  "secret",
  "token",
  "api_key",
  "apikey",
  "access_key",
  "secret_key",
  "private_key",
  "client_secret",
  "authorization",
  "auth",
  "credential",
  "credentials",
  "cookie",
  "session_id",
  "sessionid",
  "cvv",
  "cvc",
];

/** Builds the sensitive-key test: `db.password`, `X-Api-Key`, `githubToken` all qualify. */
export function secretKeyTest(keys: readonly string[]): SecretKeyTest {
  const terms = keys.map((k) => normalizeName(k)).filter((k) => k !== "");
  const exact = new Set(terms);
  const suffixes = terms.map((t) => `_${t}`);
  // A cheap first look (letters only, lower-cased) rules out most keys before normalizeName runs.
  const tails = [...new Set(terms.map((t) => t.replaceAll("_", "")))];
  const seen = new Map<string, boolean>();
  const decide = (spelled: string): boolean => {
    // `ｐａｓｓｗｏｒｄ`, `ᴾᴬˢˢ`: compatibility forms are the same name.
    const key = /[\u0080-\uffff]/.test(spelled) ? spelled.normalize("NFKC") : spelled;
    const letters = key.toLowerCase().replace(/[^a-z0-9]/g, "");
    if (!tails.some((t) => letters.endsWith(t))) return false;
    const k = normalizeName(key);
    return exact.has(k) || suffixes.some((s) => k.endsWith(s));
  };
  const test = (key: string): boolean => {
    let hit = seen.get(key);
    if (hit === undefined) {
      hit = decide(key);
      // Keys repeat (JSON arrays of records); the bound keeps adversarial input from growing the cache.
      if (seen.size >= 1024) seen.clear();
      seen.set(key, hit);
    }
    return hit;
  };
  return Object.assign(test, { finder: keyFinder(terms) });
}

const BEGIN = "-----BEGIN ";
const BEGIN_LINE = /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/y;
const END_LINE = /-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/y;

/**
 * Hides PEM/PGP private-key blocks; an unterminated block is hidden to the end of the text, or in
 * JSON mode (`json`) to the end of the string literal it starts in.
 */
export function redactPrivateKeys(text: string, placeholder: string, json = false): string {
  let at = text.indexOf(BEGIN);
  if (at === -1) return text;
  let out = "";
  let last = 0;
  // The next "-----END " at or after the search position; positions only move forward, so each
  // part of the text is searched once however many BEGIN lines there are.
  let endMark = -2;
  const nextEndMark = (from: number): number => {
    if (endMark !== -1 && endMark < from) endMark = text.indexOf("-----END ", from);
    return endMark;
  };
  while (at !== -1) {
    BEGIN_LINE.lastIndex = at;
    if (!BEGIN_LINE.test(text)) {
      at = text.indexOf(BEGIN, at + 1);
      continue;
    }
    const bodyStart = BEGIN_LINE.lastIndex;
    const quote = json ? text.indexOf('"', bodyStart) : -1;
    const limit = quote === -1 ? text.length : quote;
    let end = -1;
    for (let e = nextEndMark(bodyStart); e !== -1 && e < limit; e = nextEndMark(e + 1)) {
      END_LINE.lastIndex = e;
      if (END_LINE.test(text) && END_LINE.lastIndex <= limit) {
        end = END_LINE.lastIndex;
        break;
      }
    }
    out += text.slice(last, at) + placeholder;
    // Fail closed: no end marker, hide the rest (of the string literal, in JSON mode).
    if (end === -1 && quote === -1) return out;
    last = end === -1 ? limit : end;
    at = text.indexOf(BEGIN, last);
  }
  return out + text.slice(last);
}
