import { checkPath } from "../index.js";
import { FAMILIES, type Family, familyOf } from "./families.js";
import { escapes } from "./oracle.js";
import { loadCorpus, type Payload } from "./payloads.js";

/** The root the corpus is checked against. */
export const CORPUS_ROOT = "/srv/data";

/** Counts for one family (or for all). */
export interface Tally {
  payloads: number;
  escaping: number;
  /** Escaping payloads that checkPath refuses. */
  refused: number;
  /** Payloads that do not escape under any reading, refused anyway (an odd segment, a control character…). */
  refusedHarmless: number;
}

/** The figures of one run over the corpus. */
export interface Figures {
  readonly lines: number;
  /** Differences from sources.json (see loadCorpus). */
  readonly problems: readonly string[];
  readonly all: Tally;
  readonly byFamily: Readonly<Record<Family, Tally>>;
  /** Escaping payloads checkPath lets through (must be empty). */
  readonly missed: readonly Payload[];
}

const empty = (): Tally => ({ payloads: 0, escaping: 0, refused: 0, refusedHarmless: 0 });

/**
 * Runs every distinct payload of the corpus through the reference decoder and through checkPath.
 *
 * @example
 * ```ts
 * corpusFigures().missed.length; // 0
 * ```
 */
export function corpusFigures(): Figures {
  const { payloads: lines, problems } = loadCorpus();
  const unique = new Map<string, Payload>();
  for (const p of lines) if (!unique.has(p.text)) unique.set(p.text, p);
  const all = empty();
  const byFamily = Object.fromEntries(FAMILIES.map((f) => [f, empty()])) as Record<Family, Tally>;
  const missed: Payload[] = [];
  for (const p of unique.values()) {
    const escaping = escapes(p.text);
    const refused = !checkPath(p.text, { root: CORPUS_ROOT }).ok;
    for (const t of [all, byFamily[familyOf(p.text)]]) {
      t.payloads++;
      if (escaping) t.escaping++;
      if (escaping && refused) t.refused++;
      if (!escaping && refused) t.refusedHarmless++;
    }
    if (escaping && !refused) missed.push(p);
  }
  return { lines: lines.length, problems, all, byFamily, missed };
}
