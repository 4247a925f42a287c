// Random policies of the descriptor's shape, for the property tests: each arbitrary yields what a file says (`raw`)
// and what the checked document must hold (`doc`: durations in milliseconds, renamed keys).
import fc from "fast-check";
import { policySpec } from "./spec.js";
import type { Spec } from "./spec-types.js";

export interface Sample {
  readonly raw: unknown;
  readonly doc: unknown;
}

const same = (v: unknown): Sample => ({ raw: v, doc: v });
const UNITS: readonly [string, number][] = [
  ["ms", 1],
  ["s", 1000],
  ["m", 60_000],
  ["h", 3_600_000],
];

const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
// Text as people write it, YAML's special characters included.
const text = fc.oneof(
  word,
  fc.string({ minLength: 1, maxLength: 24 }).filter((s) => s.trim() !== ""),
);

function durationArb(allowZero: boolean): fc.Arbitrary<Sample> {
  return fc.oneof(
    fc.integer({ min: allowZero ? 0 : 1, max: 10_000_000 }).map(same),
    fc.tuple(fc.integer({ min: 1, max: 500 }), fc.constantFrom(...UNITS)).map(([n, [unit, ms]]) => ({
      raw: `${n}${unit}`,
      doc: n * ms,
    })),
  );
}

/** A valid value of a spec (refinements across keys are mended in {@link policyArb}). */
export function sampleOf(spec: Spec, depth = 0): fc.Arbitrary<Sample> {
  switch (spec.kind) {
    case "string": {
      if (spec.enum !== undefined) return fc.constantFrom(...spec.enum).map(same);
      // A store reference: the pattern admits no word, so the arbitrary names real ones.
      if (spec.noun === "a store") {
        return fc.constantFrom("memory", "redis://127.0.0.1:6379/0", "rediss://cache.internal:6380").map(same);
      }
      if (spec.pattern !== undefined) return word.filter((w) => spec.pattern?.test(w) === true).map(same);
      return text.map(same);
    }
    case "number": {
      const min = spec.minimum ?? -1000;
      const max = spec.maximum ?? min + 10_000;
      return (
        spec.integer === true
          ? fc.integer({ min, max })
          : fc.double({ min, max, noNaN: true }).map((v) => (v === 0 ? 0 : v))
      ).map(same);
    }
    case "boolean":
      return fc.boolean().map(same);
    case "const":
      return fc.constant(spec.value).map(same);
    case "duration":
      return durationArb(spec.allowZero === true);
    case "array":
      return fc
        .array(sampleOf(spec.items, depth + 1), { minLength: spec.minItems ?? 0, maxLength: depth === 0 ? 6 : 3 })
        .map((items) => ({
          raw: items.map((i) => i.raw),
          doc: items.map((i) => i.doc),
        }));
    case "record":
      return fc.dictionary(word, sampleOf(spec.values, depth + 1), { maxKeys: 3 }).map((dict) => ({
        raw: Object.fromEntries(Object.entries(dict).map(([k, v]) => [k, v.raw])),
        doc: Object.fromEntries(Object.entries(dict).map(([k, v]) => [k, v.doc])),
      }));
    case "choice":
      return fc.oneof(...spec.options.map((o) => sampleOf(o, depth)));
    case "object": {
      const parts: Record<string, fc.Arbitrary<Sample | undefined>> = {};
      for (const [key, field] of Object.entries(spec.fields)) {
        const value = sampleOf(field.spec, depth + 1);
        parts[key] = field.required === true ? value : fc.option(value, { nil: undefined, freq: 2 });
      }
      return fc.record(parts).map((chosen) => {
        const raw: Record<string, unknown> = {};
        const doc: Record<string, unknown> = {};
        for (const [key, sample] of Object.entries(chosen)) {
          if (sample === undefined) continue;
          raw[key] = sample.raw;
          doc[spec.fields[key]?.as ?? key] = sample.doc;
        }
        return { raw, doc };
      });
    }
  }
}

type Rec = Record<string, unknown>;

// The rules across keys, applied to both forms: what a valid file must also respect.
function mend(sample: Sample): Sample {
  const raw = sample.raw as Rec;
  const doc = sample.doc as Rec;
  if (raw.default !== "deny") {
    delete raw.defaultReason;
    delete doc.defaultReason;
  }
  for (const part of [raw, doc]) {
    const cedar = part.cedar as Rec | undefined;
    if (cedar !== undefined) {
      if (cedar.policies !== undefined) delete cedar.file;
      else cedar.file ??= "policy.cedar";
      if (cedar.schema !== undefined) delete cedar.schemaFile;
    }
  }
  const rules = raw.rules as Rec[];
  const docRules = doc.rules as Rec[];
  rules.forEach((rule, i) => {
    const d = docRules[i] as Rec;
    for (const r of [rule, d]) {
      r.name = `${r.name as string}-${i}`;
      if (r.decide !== "approve") delete r.approval;
      if (r.decide !== "deny" && r.decide !== "approve") delete r.reason;
      if (r.decide === undefined && r.packs === undefined) r.decide = "allow";
    }
  });
  return { raw, doc };
}

/** A random valid policy: what the file says and what the checked document holds. */
export const policyArb: fc.Arbitrary<Sample> = sampleOf(policySpec).map((s) => mend(structuredClone(s)));
