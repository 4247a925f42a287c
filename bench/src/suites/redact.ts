import { redactText } from "@toolware/packs/redact";
import { type Cases, clock, emit, measureInterleaved, roundOptions, type Subject } from "../harness.js";
import { adversarialInputs, realisticHtml, realisticJson } from "../redact-corpus.js";
import { naiveRedact } from "../redact-naive.js";

// redact's throughput on 1 MiB tool results, against the naive single alternation over the same
// shapes in the same process (cases "html", "json"), and on 1 MiB of near-misses of each detector
// ("adversarial"). Each call redacts the whole text; ns/call converts to MB/s in the report.

const PLANTED = ["sk-proj-", "ghp_", "@example.com", "4111 1111 1111 1111"];

function hidesPlanted(input: string): (value: unknown) => void {
  return (value) => {
    if (typeof value !== "string" || value === input) throw new Error("expected a redacted copy of the text");
    for (const p of PLANTED) if (value.includes(p)) throw new Error(`${p} survived`);
  };
}

function pair(name: string, text: string): Subject[] {
  const check = hidesPlanted(text);
  return [
    { id: `naive-${name}`, label: `naive alternation, 1 MiB ${name}`, hooks: 0, run: () => naiveRedact(text), check },
    {
      id: `redact-${name}`,
      label: `redactText, 1 MiB ${name}`,
      hooks: 0,
      run: () => redactText(text),
      check: (value) => {
        check(value);
        if (name === "json") JSON.parse(value as string);
      },
    },
  ];
}

const NAIVE_CAP = 16 * 1024;

/** The naive alternation's time at `NAIVE_CAP` and twice that, best of three: it is quadratic, so never at 1 MiB. */
function naiveOnAdversarial(): Record<string, { mbps: number; growth: number }> {
  const out: Record<string, { mbps: number; growth: number }> = {};
  const small = adversarialInputs(NAIVE_CAP);
  const large = adversarialInputs(2 * NAIVE_CAP);
  const time = (text: string): number => {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      const t = clock.now();
      naiveRedact(text);
      best = Math.min(best, clock.now() - t);
    }
    return Math.max(best, 1);
  };
  for (const [name, text] of Object.entries(small)) {
    const t = time(text);
    out[name] = { mbps: (text.length / t) * 1e3, growth: time(large[name] as string) / t };
  }
  return out;
}

const cases: Cases = {
  html: () => pair("html", realisticHtml()),
  json: () => pair("json", realisticJson()),
  adversarial: () => {
    const html = realisticHtml();
    const reference: Subject = {
      id: "redact-html-ref",
      label: "redactText, 1 MiB html (reference)",
      hooks: 0,
      run: () => redactText(html),
      check: hidesPlanted(html),
    };
    const inputs = Object.entries(adversarialInputs());
    return [
      reference,
      ...inputs.map(([name, text], i) => ({
        id: `redact-adv-${i}`,
        label: `redactText, 1 MiB ${name}`,
        hooks: 0,
        run: () => redactText(text),
        check: (value: unknown) => {
          if (typeof value !== "string") throw new Error("expected a string");
        },
      })),
    ];
  },
};

const which = process.argv[2] ?? "";
const make = cases[which];
if (make === undefined)
  throw new TypeError(`redact: unknown case ${JSON.stringify(which)} (expected html, json, adversarial)`);
const subjects = await make();
const timings = await measureInterleaved(
  subjects,
  roundOptions({ rounds: which === "adversarial" ? 6 : 12, roundMs: 60 }),
);
const inputBytes = which === "adversarial" ? 1 << 20 : (which === "html" ? realisticHtml() : realisticJson()).length;
emit({
  suite: "redact",
  case: which,
  reference: subjects[0]?.id ?? "",
  timings,
  notes: [
    "One call redacts the whole text (`redactText` with the default options); MB/s = input bytes / time per call.",
    "The naive baseline joins redact's shapes into one regex and makes one `replace` pass (bench/src/redact-naive.ts); × direct is the time against it.",
    `On adversarial inputs the naive alternation is only timed at ${NAIVE_CAP / 1024} KiB and ${(2 * NAIVE_CAP) / 1024} KiB: it is quadratic there.`,
  ],
  extra: {
    inputBytes,
    ...(which === "adversarial" ? { naive: naiveOnAdversarial(), naiveCapBytes: NAIVE_CAP } : {}),
  },
});
