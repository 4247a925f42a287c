/**
 * Shortens text to `max` characters, saying how much was cut. Never splits a
 * surrogate pair, so the preview stays valid UTF-16.
 *
 * @example
 * ```ts
 * truncate("abcdef", 3); // "abc… (+3 chars)"
 * ```
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${text.slice(0, cut)}… (+${text.length - cut} chars)`;
}
