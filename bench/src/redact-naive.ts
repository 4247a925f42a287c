// The baseline redact is measured against: every shape redact detects, written the way a first
// implementation writes them (the detectors' classes and prefixes, without redact's guards against
// backtracking), joined by `|` into one regex, in one `replace` pass with a Luhn check for cards.
// It is quick on ordinary text and quadratic on crafted text: a long run of word characters is
// rescanned from each of its positions by the e-mail branch, `sk-sk-…` by the key branch, and
// every BEGIN line reads on to the end of the text looking for its END line. Of the ways to write
// the pairs branch this is the quicker one (a `[\w.-]*` prefix would make the baseline slower).

const SHAPES = [
  // Provider tokens (redact's TOKEN_PATTERNS without their look-behinds).
  String.raw`sk-(?=[\w-]*\d)[\w-]{20,}`,
  "(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
  "whsec_[A-Za-z0-9]{16,}",
  "gh[pousr]_[A-Za-z0-9]{30,}",
  String.raw`github_pat_\w{30,}`,
  String.raw`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`,
  "xox[abposr]-[A-Za-z0-9-]{10,}",
  String.raw`AIza[\w-]{35}`,
  String.raw`eyJ[\w-]+\.eyJ[\w-]+\.[\w-]*`,
  // Private-key blocks, URL passwords, bearer tokens.
  String.raw`-----BEGIN [A-Z ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY(?: BLOCK)?-----`,
  String.raw`[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#@:]*:[^\s/?#@]+@`,
  String.raw`[Bb]earer\s+[\w.~+/-]{16,}=*`,
  // Sensitive `key: value` pairs (the default key words after a word boundary), quoted or bare values.
  String.raw`\b(?:[Pp]ass(?:word|wd|phrase)?|PASS(?:WORD|WD)?|[Pp]wd|[Ss]ecret|SECRET|[Tt]oken|TOKEN|[Aa]pi_?[Kk]ey|API_?KEY|[Kk]ey|KEY|[Aa]uth(?:orization)?|[Cc]redentials?|[Cc]ookie|[Ss]ession_?[Ii][Dd]|cv[vc])["']?\s*[:=]\s*(?:"[^"]*"|'[^']*'|[^\s"',;&<>{}()[\]]+)`,
  // E-mail addresses.
  String.raw`[\w.%+-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}`,
  // Card numbers: 13-19 digits, optionally grouped by single spaces or dashes.
  String.raw`\b\d(?:[ -]?\d){12,18}\b`,
];

/** The single alternation; the card branch is the last group. */
export const NAIVE_ALTERNATION = new RegExp(SHAPES.map((s) => `(${s})`).join("|"), "g");
const CARD_GROUP = SHAPES.length;

function luhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * Redacts with the naive alternation.
 *
 * @example
 * ```ts
 * naiveRedact("key sk-proj-abc123def456ghi789jkl0"); // "key [REDACTED]"
 * ```
 */
export function naiveRedact(text: string): string {
  return text.replace(NAIVE_ALTERNATION, (...m: unknown[]) => {
    const whole = m[0] as string;
    if (m[CARD_GROUP] === undefined) return "[REDACTED]";
    return luhn(whole.replace(/[ -]/g, "")) ? "[CARD-REDACTED]" : whole;
  });
}
