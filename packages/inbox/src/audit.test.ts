import { generateKeyPairSync } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileAuditLog, verifyAuditChain } from "./audit.js";
import { createInbox } from "./inbox.js";
import { createSigner, signerFromEnv, signerFromFile } from "./signer.js";
import { sqliteInboxStore } from "./sqlite-store.js";
import { SECRET, signer, tempDir } from "./test-utils.js";

async function auditedRun(path: string): Promise<void> {
  const { dir } = tempDir();
  const inbox = createInbox({
    store: sqliteInboxStore({ file: join(dir, "db") }),
    signer: signer(),
    audit: fileAuditLog(path),
  });
  const { approver } = await inbox.approvers.add({ name: "boss" });
  for (const callId of ["a", "b", "c"]) {
    const { request } = await inbox.submit({ toolName: "send_email", callId, input: { to: callId }, caller: "mailer" });
    await inbox.decide(request.id, { approver, approve: callId !== "b", digest: request.binding.digest });
  }
  await inbox.close();
}

describe("the audit log", () => {
  it("records every request and decision with the approver, chained by hash; a restart continues the chain", async () => {
    const { dir, remove } = tempDir();
    const path = join(dir, "audit.jsonl");
    await auditedRun(path);
    await auditedRun(path);
    const lines = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(12);
    expect(lines.filter((l) => l.type === "decision").map((l) => l.actor)).toEqual(Array(6).fill("boss"));
    expect(lines[1]).toMatchObject({
      type: "decision",
      data: { toolName: "send_email", callId: "a", state: "approved" },
    });
    expect(JSON.stringify(lines)).not.toContain('"to"');
    expect(verifyAuditChain(path)).toEqual({ ok: true, records: 12, line: undefined, problem: undefined });
    remove();
  });

  it("finds a removed, an edited and a reordered line", async () => {
    const { dir, remove } = tempDir();
    const path = join(dir, "audit.jsonl");
    await auditedRun(path);
    const lines = readFileSync(path, "utf8").trim().split("\n");
    const check = (changed: string[]) => {
      writeFileSync(path, `${changed.join("\n")}\n`);
      return verifyAuditChain(path);
    };
    expect(check(lines.filter((_, i) => i !== 2))).toMatchObject({ ok: false, line: 3 });
    expect(check(lines.map((l, i) => (i === 1 ? l.replace('"approved"', '"denied"') : l)))).toMatchObject({
      ok: false,
      line: 2,
      problem: /edited/,
    });
    expect(check([lines[1] as string, lines[0] as string, ...lines.slice(2)])).toMatchObject({ ok: false, line: 1 });
    expect(check([...lines.slice(0, 5), "not json"])).toMatchObject({ ok: false, line: 6, records: 5 });
    expect(check(lines)).toMatchObject({ ok: true, records: 6 });
    remove();
  });
});

describe("signing keys", () => {
  it("HS256 and EdDSA sign and verify; rotation verifies with every listed key and signs with the current one", () => {
    const ed = generateKeyPairSync("ed25519");
    const edKey = {
      kid: "ed1",
      alg: "EdDSA" as const,
      privateKey: ed.privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
      publicKey: ed.publicKey.export({ format: "pem", type: "spki" }).toString(),
    };
    const old = createSigner({ keys: [{ kid: "old", alg: "HS256", secret: SECRET }] });
    const rotated = createSigner({ keys: [edKey, { kid: "old", alg: "HS256", secret: SECRET }] });
    const signed = old.sign("claims");
    expect(rotated.verify("claims", signed)).toBe(true);
    expect(rotated.verify("claimz", signed)).toBe(false);
    const fresh = rotated.sign("claims");
    expect(fresh.startsWith("ed1.")).toBe(true);
    expect(old.verify("claims", fresh)).toBe(false);
    const verifier = createSigner({
      keys: [
        { kid: "old", alg: "HS256", secret: SECRET },
        { ...edKey, privateKey: undefined },
      ],
    });
    expect(verifier.verify("claims", fresh)).toBe(true);
    expect(verifier.verify("claims", `${fresh}x`)).toBe(false);
    expect(verifier.verify("claims", "unknown.AAAA")).toBe(false);
    expect(() => createSigner({ keys: [{ ...edKey, privateKey: undefined }] })).toThrow(/no private key/);
  });

  it("refuses short secrets, duplicate ids, unknown algorithms and option typos", () => {
    expect(() => createSigner({ keys: [{ kid: "k", alg: "HS256", secret: "short" }] })).toThrow(/32 bytes/);
    expect(() =>
      createSigner({
        keys: [
          { kid: "k", alg: "HS256", secret: SECRET },
          { kid: "k", alg: "HS256", secret: SECRET },
        ],
      }),
    ).toThrow(/twice/);
    expect(() => createSigner({ keys: [{ kid: "k", alg: "none", secret: SECRET } as never] })).toThrow(/alg/);
    expect(() => createSigner({ keys: [{ kid: "k", alg: "HS256", secert: SECRET } as never] })).toThrow(
      /did you mean "secret"/,
    );
    expect(() => createSigner({ keys: [{ kid: "k", alg: "HS256", secret: SECRET }], current: "other" })).toThrow(
      /current/,
    );
  });

  it("reads keys from the environment and from a file", () => {
    const keys = JSON.stringify([{ kid: "env", alg: "HS256", secret: SECRET }]);
    expect(signerFromEnv({ TOOLWARE_INBOX_KEYS: keys }).kid).toBe("env");
    expect(() => signerFromEnv({})).toThrow(/TOOLWARE_INBOX_KEYS/);
    expect(() => signerFromEnv({ TOOLWARE_INBOX_KEYS: "{" })).toThrow(/JSON/);
    const { dir, remove } = tempDir();
    writeFileSync(
      join(dir, "keys.json"),
      JSON.stringify({
        keys: [
          { kid: "a", alg: "HS256", secret: SECRET },
          { kid: "b", alg: "HS256", secret: `${SECRET}!` },
        ],
        current: "b",
      }),
    );
    expect(signerFromFile(join(dir, "keys.json")).kid).toBe("b");
    remove();
  });
});
