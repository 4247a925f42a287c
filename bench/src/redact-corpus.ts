// Inputs for the redact suite: realistic tool results (an HTML page, a JSON API response) of about
// 1 MiB with a few secrets in them, and adversarial strings made of near-misses of every detector.
// Everything is generated from a fixed seed, so every run measures the same text.

/** A small deterministic PRNG (mulberry32), so the corpus is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the of and to in is that for it as was with be by on not he this are or his from at which but have an they you " +
  "were her all she there would their we him been has when who will more no if out so said what up its about into " +
  "than them can only other new some could time these two may then do first any my now such like our over man me " +
  "even most made after also did many before must through back years where much your way well down should because " +
  "each just those people how too little state good very make world still own see men work long get here between " +
  "both life being under never day same another know while last might us great old year off come since against go " +
  "came right used take three tokens session passport author oauth bypass secretary passenger keyboard"
).split(" ");

/** Builds text pieces until about `bytes` characters. */
function build(bytes: number, piece: (rnd: () => number, i: number) => string, seed: number): string {
  const rnd = prng(seed);
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const p = piece(rnd, i);
    parts.push(p);
    size += p.length;
  }
  return parts.join("");
}

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)] as T;
}

function sentence(rnd: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(pick(rnd, WORDS));
  const s = out.join(" ");
  return `${s[0]?.toUpperCase()}${s.slice(1)}.`;
}

function hex(rnd: () => number, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += "0123456789abcdef"[Math.floor(rnd() * 16)];
  return s;
}

function alnum(rnd: () => number, n: number): string {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let s = "";
  for (let i = 0; i < n; i++) s += chars[Math.floor(rnd() * chars.length)];
  return s;
}

const uuid = (rnd: () => number) => `${hex(rnd, 8)}-${hex(rnd, 4)}-4${hex(rnd, 3)}-a${hex(rnd, 3)}-${hex(rnd, 12)}`;
const date = (rnd: () => number) =>
  `2024-${String(1 + Math.floor(rnd() * 12)).padStart(2, "0")}-${String(1 + Math.floor(rnd() * 28)).padStart(2, "0")}T10:${String(Math.floor(rnd() * 60)).padStart(2, "0")}:00Z`;

// One secret every so many pieces: realistic results are mostly ordinary text.
const SECRETS = [
  (rnd: () => number) => `sk-proj-${alnum(rnd, 40)}`,
  (rnd: () => number) => `ghp_${alnum(rnd, 36)}`,
  (rnd: () => number) => `AKIA${alnum(rnd, 16).toUpperCase()}`,
  (rnd: () => number) => `${alnum(rnd, 6).toLowerCase()}@example.com`,
  () => "4111 1111 1111 1111",
];

function htmlPiece(rnd: () => number, i: number): string {
  const id = Math.floor(rnd() * 100000);
  const secret = i % 40 === 7 ? ` Contact ${pick(rnd, SECRETS)(rnd)} for access.` : "";
  switch (i % 6) {
    case 0:
      return `<div class="card item-${id}" data-id="${uuid(rnd)}"><h3><a href="https://shop.example.com/p/${id}?ref=home&amp;utm_source=feed">${sentence(rnd, 4)}</a></h3>\n`;
    case 1:
      return `<p>${sentence(rnd, 14)} ${sentence(rnd, 9)}${secret}</p>\n`;
    case 2:
      return `<tr><td>${date(rnd)}</td><td>${(rnd() * 1000).toFixed(2)}</td><td>${id}</td><td>${hex(rnd, 12)}</td></tr>\n`;
    case 3:
      return `<img src="/static/img/${hex(rnd, 16)}.webp" alt="${sentence(rnd, 3)}" width="320" height="240" loading="lazy">\n`;
    case 4:
      return `<script>window.__cfg = {"page": ${id}, "lang": "en", "flags": ["a", "b"], "ts": "${date(rnd)}"};</script>\n`;
    default:
      return `<li style="color: #${hex(rnd, 6)}; margin: 0 4px;"><span>${sentence(rnd, 6)}</span></li></div>\n`;
  }
}

function jsonRecord(rnd: () => number, i: number): string {
  const record: Record<string, unknown> = {
    id: 100000 + i,
    uuid: uuid(rnd),
    name: sentence(rnd, 2).slice(0, -1),
    created_at: date(rnd),
    price: Math.round(rnd() * 100000) / 100,
    tags: [pick(rnd, WORDS), pick(rnd, WORDS)],
    active: rnd() > 0.5,
    address: { street: `${id3(rnd)} ${pick(rnd, WORDS)} street`, city: pick(rnd, WORDS), zip: id3(rnd) + id3(rnd) },
    description: `${sentence(rnd, 12)} ${sentence(rnd, 8)}`,
    checksum: hex(rnd, 40),
  };
  // Markdown bodies and embedded JSON: strings with escapes, as API responses have them.
  if (i % 3 === 0) record.body = `## ${sentence(rnd, 3)}\n\n${sentence(rnd, 10)}\n- "${pick(rnd, WORDS)}"\n`;
  if (i % 10 === 5) record.event = JSON.stringify({ type: pick(rnd, WORDS), at: date(rnd), by: id3(rnd) });
  if (i % 25 === 3) record.note = `reach ${pick(rnd, SECRETS)(rnd)} today`;
  if (i % 50 === 11) record.api_key = alnum(rnd, 32);
  return JSON.stringify(record);
}

function id3(rnd: () => number): string {
  return String(Math.floor(rnd() * 900) + 100);
}

/** About 1 MiB of HTML: cards, paragraphs, table rows, images, inline config scripts; a few secrets. */
export function realisticHtml(bytes = 1 << 20): string {
  return `<!doctype html><html><head><title>Catalog</title></head><body>\n${build(bytes, htmlPiece, 1)}</body></html>`;
}

/** About 1 MiB of JSON: an API response with an array of records; a few secrets. */
export function realisticJson(bytes = 1 << 20): string {
  const body = build(bytes, (rnd, i) => (i === 0 ? "" : ",") + jsonRecord(rnd, i), 2);
  return `{"page":1,"per_page":5000,"items":[${body}]}`;
}

/** Near-misses of every detector, each repeated to about `bytes` characters. */
export function adversarialInputs(bytes = 1 << 20): Record<string, string> {
  const rep = (unit: string) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
  return {
    "letters then !": `${"a".repeat(bytes - 1)}!`,
    "local parts a.a.a…": `${rep("a.")}!`,
    "digits 1 1 1…": rep("1 "),
    "digit groups 1234 …": rep("1234 "),
    "key prefixes sk-sk-…": rep("sk-"),
    "JWT heads eyJ.eyJ…": rep("eyJaaaaa."),
    'open quotes password:"…': rep('password:"'),
    'escaped quotes \\"…': rep('\\"'),
    "bearer bearer …": rep("bearer "),
    "schemes x://a:…": rep("a://a:"),
    "PEM headers": rep("-----BEGIN PRIVATE KEY-----"),
    "Go operators password :=…": rep("password :="),
    "XML tags <password>…": rep("<password>"),
    "references password=${…": rep("password=${"),
    "curl options curl -u …": rep("curl -u "),
    'call arguments ("password", …': rep('("password", '),
  };
}
