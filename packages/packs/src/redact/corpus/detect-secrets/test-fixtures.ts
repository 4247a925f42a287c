// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell and template references are the data here
// Examples from detect-secrets' plugin tests, copied as data (the secrets and lines; no code).
// Source: https://github.com/Yelp/detect-secrets, tests/plugins/*_test.py
// at commit 5e141933554a0b74e7341841f318be21e895339c (2026-04-02).

export const SOURCE = {
  repo: "Yelp/detect-secrets",
  path: "tests/plugins",
  commit: "5e141933554a0b74e7341841f318be21e895339c",
} as const;

/** keyword_test.py: the secrets its keyword cases must find (COMMON_SECRET, WHITES_SECRET, LETTER_SECRET). */
export const KEYWORD_SECRETS = {
  common: "m{{h}o)p${e]nob(ody[finds>-_$#thisone}}",
  withSpaces: "value with quotes and spaces",
  letters: "A,.:-¨@*¿?!",
} as const;

/** keyword_test.py: lines that hold no secret (references, empty values). */
export const KEYWORD_NON_SECRETS: readonly string[] = [
  'api_key = ""',
  "secret: ''",
  "password: ${link}",
  "password[] = ${link}",
  "password = ${link}",
  'password => ""',
];

/** aws_key_test.py, github_token_test.py, gitlab_token_test.py, slack_test.py, stripe_key_test.py,
 * npm_test.py, jwt_test.py, openai_test.py, pypi_token_test.py, sendgrid_test.py, basic_auth_test.py:
 * the values they flag. */
export const FLAGGED: Readonly<Record<string, readonly string[]>> = {
  aws: [
    "AKIAZZZZZZZZZZZZZZZZ",
    "A3T0ZZZZZZZZZZZZZZZZ",
    "ABIAZZZZZZZZZZZZZZZZ",
    "ACCAZZZZZZZZZZZZZZZZ",
    "ASIAZZZZZZZZZZZZZZZZ",
  ],
  awsSecret: ["wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"],
  github: ["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"],
  gitlab: [
    "glpat-hellOworld380_testin",
    "gldt-HwllOuhfw-wu0rlD_yep",
    "glsoat-PREfix_helloworld380_testin_pretty_long_token_long",
    "GR1348941PREfix_helloworld380",
    "GR1348941PREfix_helloworld380_testin_pretty_long_token_long",
    "glcbt-helloworld380_testin",
  ],
  slack: [
    "xoxp-523423-234243-234233-e039d02840a0b9379c",
    "xoxo-523423-234243-234233-e039d02840a0b9379c",
    "xoxs-523423-234243-234233-e039d02840a0b9379c",
    "xoxa-511111111-31111111111-3111111111111-e039d02840a0b9379c",
    "xoxa-2-511111111-31111111111-3111111111111-e039d02840a0b9379c",
    "xoxr-523423-234243-234233-e039d02840a0b9379c",
    "xoxb-34532454-e039d02840a0b9379c",
  ],
  slackWebhook: ["https://hooks.slack.com/services/Txxxxxxxx/Bxxxxxxxx/xxxxxxxxxxxxxxxxxxxxxxxx"],
  stripe: ["sk_live_ReTllpYQYfIZu2Jnf2lAPFjD", "rk_live_5TcWfjKmJgpql9hjpRnwRXbT"],
  npm: ["743b294a-cd03-11ec-9d64-0242ac120002", "346a14f2-a672-4668-a892-956a462ab56e"],
  jwt: [
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "eyJ0eXAiOiJKV1QiLA0KImFsZyI6IkhTMjU2In0.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ",
    "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.eyJuYW1lIjoiSm9lIiwKInN0YXR1cyI6ImVtcGxveWVlIgp9",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IsWww6HFkcOtIMOWxZHDqcOoIiwiaWF0IjoxNTE2MjM5MDIyfQ.k5HibI_uLn_RTuPcaCNkaVaQH2y5q6GvJg8GPpGMRwQ",
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ",
  ],
  openai: [
    "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",
    "sk-proj-Xi8tdMjHV6pmbBbwilTeT3BlbkFJ3UDnpdEwNNm6wVBpYM0o",
  ],
  sendgrid: ["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"],
  basicAuth: ["https://username:password@yelp.com"],
};

/** basic_auth_test.py, npm_test.py, jwt_test.py: lines they do not flag that hold no secret. */
export const NOT_FLAGGED: readonly string[] = [
  "http://localhost:5000/<%= @variable %>",
  '"https://url:8000";@something else',
  "'https://url:8000';@something else",
  "https://url:8000 @something else",
  "https://url:8000/ @something else",
  "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
  '{"alg":"HS256","typ":"JWT"}.{"name":"Jon Doe"}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
  "pk_live_j5krY8XTgIcDaHDb3YrsAfCl",
  "foo_wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx",
];
