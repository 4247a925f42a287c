// SHA-256 (FIPS 180-4) in plain TypeScript: the core loads in any runtime, so it cannot reach for
// node:crypto, and WebCrypto's digest is asynchronous where a binding must be computed in place.

function primes(count: number): number[] {
  const found: number[] = [];
  for (let n = 2; found.length < count; n++) {
    if (found.every((p) => n % p !== 0)) found.push(n);
  }
  return found;
}

// The first 32 bits of the fractional parts of the square roots (initial hash) and cube roots (round
// constants) of the first primes, as the standard defines them.
const fraction = (x: number): number => ((x - Math.floor(x)) * 2 ** 32) >>> 0;
const FIRST = primes(64);
const K = Uint32Array.from(FIRST, (p) => fraction(Math.cbrt(p)));
const H0 = Uint32Array.from(FIRST.slice(0, 8), (p) => fraction(Math.sqrt(p)));

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** An incremental SHA-256 over the UTF-8 bytes of the text it is given. @internal */
export class Sha256 {
  readonly #h = Uint32Array.from(H0);
  readonly #w = new Uint32Array(64);
  readonly #block = new Uint8Array(64);
  readonly #encoder = new TextEncoder();
  #filled = 0;
  #bytes = 0;

  update(text: string): void {
    const data = this.#encoder.encode(text);
    this.#bytes += data.length;
    let i = 0;
    while (i < data.length) {
      const take = Math.min(64 - this.#filled, data.length - i);
      this.#block.set(data.subarray(i, i + take), this.#filled);
      this.#filled += take;
      i += take;
      if (this.#filled === 64) {
        this.#compress();
        this.#filled = 0;
      }
    }
  }

  /** The digest as 64 lowercase hex digits; the hash cannot be updated after. */
  hex(): string {
    const bits = this.#bytes * 8;
    this.#block[this.#filled++] = 0x80;
    if (this.#filled > 56) {
      this.#block.fill(0, this.#filled);
      this.#compress();
      this.#filled = 0;
    }
    this.#block.fill(0, this.#filled, 56);
    const view = new DataView(this.#block.buffer);
    view.setUint32(56, Math.floor(bits / 2 ** 32));
    view.setUint32(60, bits >>> 0);
    this.#compress();
    return Array.from(this.#h, (word) => word.toString(16).padStart(8, "0")).join("");
  }

  #compress(): void {
    const w = this.#w;
    const b = this.#block;
    for (let t = 0; t < 16; t++) {
      w[t] = (b[4 * t]! << 24) | (b[4 * t + 1]! << 16) | (b[4 * t + 2]! << 8) | b[4 * t + 3]!;
    }
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15]!;
      const y = w[t - 2]!;
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
    }
    const h = this.#h;
    let [a, bb, c, d, e, f, g, hh] = [h[0]!, h[1]!, h[2]!, h[3]!, h[4]!, h[5]!, h[6]!, h[7]!];
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & bb) ^ (a & c) ^ (bb & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = bb;
      bb = a;
      a = (t1 + t2) | 0;
    }
    h[0] = h[0]! + a;
    h[1] = h[1]! + bb;
    h[2] = h[2]! + c;
    h[3] = h[3]! + d;
    h[4] = h[4]! + e;
    h[5] = h[5]! + f;
    h[6] = h[6]! + g;
    h[7] = h[7]! + hh;
  }
}
