// Sorts the corpus by the encoding a payload relies on, for the report: one family per payload,
// the most exotic one it uses (a payload that mixes `%u` and `%2f` counts as `%uXXXX`).

/** The encoding families of the report, most exotic first. */
export const FAMILIES = [
  "%uXXXX",
  "overlong UTF-8",
  "double %XX",
  "..;/",
  "%XX",
  "look-alike separators",
  "NFKC",
  "raw",
] as const;

export type Family = (typeof FAMILIES)[number];

const TESTS: readonly (readonly [Family, RegExp])[] = [
  ["%uXXXX", /%(?:25)*u[0-9a-f]{4}/i],
  // Lead bytes of overlong forms (C0, C1, E0 80-9F, F0 80-8F) and of the five- and six-byte forms.
  ["overlong UTF-8", /%(?:25)*(?:c[01]|e0|f0|f8|fc)/i],
  // `%25XX` and the nibble style `%%32%65` (a `%` followed by the hex digits encoded).
  ["double %XX", /%25[0-9a-f]{2}|%%[0-9a-f]{2}/i],
  ["..;/", /;/],
  ["%XX", /%[0-9a-f]{2}/i],
  ["look-alike separators", /[\u2044\u2215\u2216\u29f5\u29f8\u29f9\u2571\u2572\u00a5\u20a9]/],
  ["NFKC", /[^\p{ASCII}]/u],
];

/**
 * The family of one payload.
 *
 * @example
 * ```ts
 * familyOf("..%u2215etc"); // "%uXXXX"
 * ```
 */
export function familyOf(payload: string): Family {
  for (const [family, test] of TESTS) if (test.test(payload)) return family;
  return "raw";
}
