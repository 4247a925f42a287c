import { mkdtempSync, writeFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolHooks } from "@toolware/core";
import { afterEach, describe, expect, it } from "vitest";
import type { PolicyEvent } from "./events.js";
import { loadPolicy } from "./load.js";
import { tool } from "./test-fixtures.js";
import { type WatchedPolicyPack, watchPolicy } from "./watch.js";

const policyText = (decide: string, extra = "") => `version: 1
default: allow
rules:
  - name: gate
    match: { tools: [rm] }
    decide: ${decide}
${decide === "deny" ? "    reason: version-deny\n" : ""}${extra}`;

let open: WatchedPolicyPack[] = [];
afterEach(() => {
  for (const p of open) p.close();
  open = [];
});

function fileWith(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "toolware-policy-"));
  const file = join(dir, "toolware.policy.yaml");
  writeFileSync(file, text);
  return file;
}

function waitFor(events: PolicyEvent[], type: PolicyEvent["type"]): Promise<PolicyEvent> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const look = () => {
      const found = events.find((e) => e.type === type);
      if (found !== undefined) resolve(found);
      else if (Date.now() - started > 5000) reject(new Error(`no ${type} event`));
      else setTimeout(look, 10);
    };
    look();
  });
}

describe("watchPolicy", () => {
  it("reloads when the file changes, and reports the rules added, removed and changed", async () => {
    const file = fileWith(policyText("deny", "  - name: old\n    decide: allow\n"));
    const events: PolicyEvent[] = [];
    const policy = await watchPolicy(file, { onEvent: (e) => events.push(e), debounceMs: 10 });
    open.push(policy);
    const hooks = new ToolHooks();
    hooks.use(policy);
    expect((await hooks.invoke(tool("rm"), {})).reason).toBe("version-deny");
    // Editors often write a new file and rename it over the old one.
    await writeFile(`${file}.tmp`, policyText("allow", "  - name: new\n    decide: allow\n"));
    await rename(`${file}.tmp`, file);
    const reload = await waitFor(events, "reload");
    expect(reload).toMatchObject({ type: "reload", version: 2, added: ["new"], removed: ["old"], changed: ["gate"] });
    expect((await hooks.invoke(tool("rm"), {})).status).toBe("ok");
    expect(policy.version()).toBe(2);
  });

  it("a broken edit keeps the last good policy and emits the error with its position", async () => {
    const file = fileWith(policyText("deny"));
    const events: PolicyEvent[] = [];
    const policy = await watchPolicy(file, { onEvent: (e) => events.push(e), debounceMs: 10 });
    open.push(policy);
    const hooks = new ToolHooks();
    hooks.use(policy);
    await writeFile(file, policyText("deny").replace("decide:", "decied:"));
    const failed = await waitFor(events, "reload-error");
    expect(failed.type === "reload-error" && String(failed.error)).toMatch(
      /toolware\.policy\.yaml:6:\d+.*did you mean/s,
    );
    expect((await hooks.invoke(tool("rm"), {})).reason).toBe("version-deny");
    expect(policy.version()).toBe(1);
    expect(await policy.reload()).toBe(false);
  });

  it("each of 1,000 concurrent calls is decided by exactly one version, across a reload", async () => {
    const file = fileWith(policyText("allow"));
    const policy = await watchPolicy(file, { debounceMs: 0 });
    policy.close();
    const hooks = new ToolHooks();
    hooks.use(policy);
    // The tool is slow, so the first half is still running while the policy changes under it.
    const slow = { ...tool("rm"), execute: () => new Promise((r) => setTimeout(() => r("ran"), 20)) };
    const versions = new Map<string, number>();
    // Outside the policy (a higher priority), so it sees blocked calls too.
    hooks.use(
      async (ctx, next) => {
        await next();
        versions.set(ctx.callId, policy.decisionOf(ctx)?.version ?? -1);
      },
      { priority: 1000 },
    );
    const before = Array.from({ length: 500 }, () => hooks.invoke(slow, {}));
    const reloaded = writeFile(file, policyText("deny")).then(() => policy.reload());
    const during = Array.from({ length: 250 }, () => hooks.invoke(slow, {}));
    expect(await reloaded).toBe(true);
    const after = Array.from({ length: 250 }, () => hooks.invoke(slow, {}));
    const outs = await Promise.all([...before, ...during, ...after]);
    expect(versions.size).toBe(1000);
    const byVersion = { 1: 0, 2: 0 };
    for (const out of outs) {
      const v = versions.get(out.callId);
      // Ran exactly when version 1 decided it, blocked exactly when version 2 did: never a mix.
      if (v === 1) expect(out.status).toBe("ok");
      else expect(out).toMatchObject({ status: "blocked", reason: "version-deny" });
      byVersion[v as 1 | 2]++;
    }
    expect(byVersion[1]).toBeGreaterThanOrEqual(500);
    expect(byVersion[2]).toBeGreaterThanOrEqual(250);
    expect(byVersion[1] + byVersion[2]).toBe(1000);
  });

  it("a call finishes on the policy it started with, its packs included", async () => {
    const file = fileWith(policyText("allow", "    packs: { redact: {} }\n"));
    const policy = await watchPolicy(file, { debounceMs: 0 });
    policy.close();
    const hooks = new ToolHooks();
    hooks.use(policy);
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const leaky = {
      ...tool("rm"),
      execute: async () => {
        await gate;
        return "token sk-abcdefghijklmnopqrstuvwx1234";
      },
    };
    const pending = hooks.invoke(leaky, {});
    await new Promise((r) => setTimeout(r, 10));
    await writeFile(file, policyText("deny"));
    expect(await policy.reload()).toBe(true);
    release();
    const out = await pending;
    expect(out.status).toBe("ok");
    expect(out.result).not.toContain("sk-abcdefghijklmnopqrstuvwx1234");
    expect((await hooks.invoke(leaky, {})).status).toBe("blocked");
  });

  it("close() stops watching and returns true once", async () => {
    const file = fileWith(policyText("deny"));
    const events: PolicyEvent[] = [];
    const policy = await watchPolicy(file, { onEvent: (e) => events.push(e), debounceMs: 0 });
    expect(policy.close()).toBe(true);
    expect(policy.close()).toBe(false);
    await writeFile(file, policyText("allow"));
    await new Promise((r) => setTimeout(r, 100));
    expect(events).toEqual([]);
    expect(policy.version()).toBe(1);
  });

  it("loadPolicy reads the same file once and never reloads", async () => {
    const file = fileWith(policyText("deny"));
    const policy = await loadPolicy(file);
    const hooks = new ToolHooks();
    hooks.use(policy);
    await writeFile(file, policyText("allow"));
    await new Promise((r) => setTimeout(r, 50));
    expect((await hooks.invoke(tool("rm"), {})).status).toBe("blocked");
  });
});
