import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Sha256 } from "./sha256.js";

const nodeHex = (parts: readonly (string | Uint8Array)[]) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest("hex");
};

describe("Sha256", () => {
  it("gives the FIPS 180-4 test vectors", () => {
    expect(new Sha256().hex()).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(new Sha256().update("abc").hex()).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(new Sha256().update("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hex()).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    );
  });

  it("pads correctly around the 55/56/64-byte block edges and across many blocks", () => {
    for (const n of [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 70_000]) {
      const text = "x".repeat(n);
      expect(new Sha256().update(text).hex(), `length ${n}`).toBe(nodeHex([text]));
    }
  });

  it("agrees with node:crypto on any text and bytes, however they are split", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: "binary" }), fc.uint8Array({ maxLength: 200 })), { maxLength: 8 }),
        (parts) => {
          const hash = new Sha256();
          for (const part of parts) hash.update(part);
          expect(hash.hex()).toBe(nodeHex(parts));
        },
      ),
    );
  });

  it("refuses to be fed or read after its digest was read", () => {
    const hash = new Sha256().update("a");
    hash.hex();
    expect(() => hash.update("b")).toThrow(/after hex/);
    expect(() => hash.hex()).toThrow(/twice/);
  });
});
