import {
  createHmac,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign,
  timingSafeEqual,
  verify,
} from "node:crypto";
import { readFileSync } from "node:fs";
import type { InboxKey, InboxSigner } from "./contract.js";
import { checkOptions, invalidOption } from "./errors.js";

// Spelled in parts: the troubleshooting check takes every whole TOOLWARE_ literal for an error code.
const ENV_KEYS = ["TOOLWARE", "INBOX", "KEYS"].join("_");
const KID = /^[A-Za-z0-9_-]{1,64}$/;

type Loaded =
  | { kid: string; alg: "HS256"; secret: Buffer }
  | { kid: string; alg: "EdDSA"; privateKey: KeyObject | undefined; publicKey: KeyObject };

function load(key: InboxKey): Loaded {
  const k = checkOptions(key, ["kid", "alg", "secret", "privateKey", "publicKey"], "a signing key") as InboxKey;
  if (typeof k.kid !== "string" || !KID.test(k.kid))
    throw invalidOption(`a key's \`kid\` must be 1-64 characters of [A-Za-z0-9_-]`);
  if (k.alg === "HS256") {
    const secret =
      typeof k.secret === "string"
        ? Buffer.from(k.secret, "utf8")
        : k.secret instanceof Uint8Array
          ? Buffer.from(k.secret)
          : undefined;
    // Shorter than the hash's own output, an HMAC key can be guessed faster than the signature.
    if (secret === undefined || secret.length < 32)
      throw invalidOption(`the HS256 key "${k.kid}" needs a secret of at least 32 bytes`);
    return { kid: k.kid, alg: "HS256", secret };
  }
  if (k.alg === "EdDSA") {
    try {
      const publicKey = createPublicKey(k.publicKey);
      const privateKey = k.privateKey === undefined ? undefined : createPrivateKey(k.privateKey);
      if (
        publicKey.asymmetricKeyType !== "ed25519" ||
        (privateKey !== undefined && privateKey.asymmetricKeyType !== "ed25519")
      ) {
        throw new Error("not an Ed25519 key");
      }
      return { kid: k.kid, alg: "EdDSA", privateKey, publicKey };
    } catch (error) {
      throw invalidOption(`the EdDSA key "${k.kid}" could not be read (PEM, Ed25519): ${(error as Error).message}`);
    }
  }
  throw invalidOption(
    `a key's \`alg\` must be "HS256" or "EdDSA", got ${JSON.stringify(String((k as { alg: unknown }).alg))}`,
  );
}

function mac(secret: Buffer, text: string): Buffer {
  return createHmac("sha256", secret).update(text, "utf8").digest();
}

/**
 * Signs with the current key and verifies with any listed key, so keys rotate: list the new key
 * first (or name it `current`), keep the old one until what it signed has expired.
 *
 * @example
 * ```ts
 * const signer = createSigner({ keys: [{ kid: "2026-12", alg: "HS256", secret: process.env.INBOX_SECRET ?? "" }] });
 * signer.verify("text", signer.sign("text")); // true
 * ```
 */
export function createSigner(options: { keys: readonly InboxKey[]; current?: string }): InboxSigner {
  const o = checkOptions(options, ["keys", "current"], "createSigner()") as { keys: unknown; current?: unknown };
  if (!Array.isArray(o.keys) || o.keys.length === 0)
    throw invalidOption("createSigner() needs `keys`: a non-empty array");
  const keys = new Map<string, Loaded>();
  for (const key of o.keys as InboxKey[]) {
    const loaded = load(key);
    if (keys.has(loaded.kid)) throw invalidOption(`the key id "${loaded.kid}" is listed twice`);
    keys.set(loaded.kid, loaded);
  }
  const currentId = o.current === undefined ? (o.keys[0] as InboxKey).kid : o.current;
  const current = typeof currentId === "string" ? keys.get(currentId) : undefined;
  if (current === undefined) throw invalidOption(`\`current\` names no listed key: ${JSON.stringify(currentId)}`);
  if (current.alg === "EdDSA" && current.privateKey === undefined) {
    throw invalidOption(`the current key "${current.kid}" has no private key to sign with`);
  }
  return {
    kid: current.kid,
    sign(text) {
      const sig =
        current.alg === "HS256"
          ? mac(current.secret, text)
          : sign(null, Buffer.from(text, "utf8"), current.privateKey as KeyObject);
      return `${current.kid}.${sig.toString("base64url")}`;
    },
    verify(text, signature) {
      if (typeof text !== "string" || typeof signature !== "string") return false;
      const dot = signature.indexOf(".");
      const key = dot > 0 ? keys.get(signature.slice(0, dot)) : undefined;
      if (key === undefined) return false;
      const given = Buffer.from(signature.slice(dot + 1), "base64url");
      if (key.alg === "HS256") {
        const expected = mac(key.secret, text);
        return given.length === expected.length && timingSafeEqual(given, expected);
      }
      try {
        return verify(null, Buffer.from(text, "utf8"), key.publicKey, given);
      } catch {
        return false;
      }
    },
  };
}

/**
 * The signer whose keys are in the environment variable `name` (default `TOOLWARE_INBOX_KEYS`):
 * a JSON array of {@link InboxKey}s, the first one current.
 *
 * @example
 * ```ts
 * // TOOLWARE_INBOX_KEYS='[{"kid":"k1","alg":"HS256","secret":"<at least 32 random bytes>"}]'
 * const signer = signerFromEnv();
 * ```
 */
export function signerFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
  name = ENV_KEYS,
): InboxSigner {
  const text = env[name];
  if (text === undefined || text.trim() === "") throw invalidOption(`the environment variable ${name} is not set`);
  return fromJson(text, `the environment variable ${name}`);
}

/**
 * The signer whose keys are in a JSON file: `{ "keys": [...], "current": "kid" }` or a bare array.
 *
 * @example
 * ```ts
 * const signer = signerFromFile("/etc/toolware/inbox-keys.json");
 * ```
 */
export function signerFromFile(path: string): InboxSigner {
  return fromJson(readFileSync(path, "utf8"), path);
}

function fromJson(text: string, where: string): InboxSigner {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidOption(`${where} does not hold JSON keys`);
  }
  return createSigner(Array.isArray(parsed) ? { keys: parsed as InboxKey[] } : (parsed as { keys: InboxKey[] }));
}
