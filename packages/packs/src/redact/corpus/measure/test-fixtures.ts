// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell and template references are the data here
// Recall and false positives of a redactor on the corpus (see ../test-fixtures.ts).
import type { Case, DamageCase } from "../test-fixtures.js";

/**
 * True when any part of the secret survives: the whole, or its first or last third (at least
 * three characters, and its first and last three) where the rest of the text does not hold that piece anyway. So a value cut
 * short (`password=[REDACTED]&3x`) counts as a leak.
 */
export function leaks(c: Case, out: string): boolean {
  const s = c.secret;
  if (out.includes(s)) return true;
  const rest = c.text.replace(s, "");
  const n = Math.max(3, Math.ceil(s.length / 3));
  const pieces = [s.slice(0, n), s.slice(-n), s.slice(0, 3), s.slice(-3)];
  return pieces.some((p) => p.length < s.length && out.includes(p) && !rest.includes(p) && !"[REDACTED]".includes(p));
}

/**
 * The scanners' false positives that redact does change, by choice: each has a sensitive key and a
 * value shaped like a secret (a placeholder, a test value, a CSRF token), and hiding a placeholder
 * costs nothing. They are counted as false positives in the report, not as damage.
 */
export const ACCEPTED: ReadonlySet<string> = new Set([
  "curl -i -u 'test:test'",
  "curl -u username:token",
  'curl --user "xxx:yyy"',
  "curl http://127.0.0.1:5000/file --user user:pass --digest        # digest auth",
  '   curl -X GET --insecure --user "username:password" \\',
  'curl https://example.com/micropub -d h=entry -d "content=Hello World" -H "Authorization: Bearer XXXXXXXXXXXX"',
  "Authorization: Token **********",
  'curl -X POST https://accounts.spotify.com/api/token -d grant_type=client_credentials --header "Authorization: Basic ..."',
  'curl -XPOST http://localhost:8080/api/token -H "Authorization: basic {base64(email:password[\\n])}" => token',
  'curl -X POST -H "Content-Type: application/json" -H "Authorization: Basic eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJjb25maWRlbmNlIjowLjh9.kvRPfjAhLhtRTczoRgctVGp7KY1QVH3UBZM-gM0x8ec" \\',
  ',apiKey:"6fe4476ee5a1832882e326b506d14126",',
  "csrf-token=Mj2qykJO5rELyHgezQ69nzUX0i3OH67V7+V4eUrLfpuyOuxmiW9rhROG/Whikle15syazJOkrjJa3U2AbhIvUw==",
  'publicToken = "9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit"',
  "PuttyPassword=0",
]);

export interface FamilyFigures {
  readonly family: string;
  readonly cases: number;
  readonly removed: number;
  readonly recall: number;
  readonly leaked: readonly Case[];
}

/** Per-family recall of `redact` on `families`, and the damage cases it changed. */
export function measure(
  redact: (text: string) => string,
  families: Record<string, Case[]>,
  damage: readonly DamageCase[],
): { families: FamilyFigures[]; damaged: DamageCase[]; accepted: { total: number; changed: number } } {
  const figures = Object.entries(families).map(([family, cases]) => {
    const leaked = cases.filter((c) => leaks(c, redact(c.text)));
    const removed = cases.length - leaked.length;
    return { family, cases: cases.length, removed, recall: removed / cases.length, leaked };
  });
  const damaged = damage.filter((d) => redact(d.text) !== d.text);
  const changed = [...ACCEPTED].filter((t) => redact(t) !== t).length;
  return { families: figures, damaged, accepted: { total: ACCEPTED.size, changed } };
}
