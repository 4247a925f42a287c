// One line per call: an audit instance counts once in a chain, and a file has one audit() in a process.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Agent, defineTool, ToolHooks, toolwareCode } from "@toolware/core";
import { afterAll, describe, expect, it } from "vitest";
import { audit } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "toolware-audit-once-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `audit-${n++}.jsonl`);
const lineCount = (file: string) => readFileSync(file, "utf8").trimEnd().split("\n").filter(Boolean).length;
const search = defineTool({ name: "web_search", execute: ({ q }: { q: string }) => `results for ${q}` });

function refusal(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("audit: one line per call", () => {
  it("the same instance twice on one layer is refused (TOOLWARE_DUPLICATE_PACK): it wrote two lines per call", async () => {
    const file = fresh();
    const trail = audit({ file });
    const hooks = new ToolHooks();
    hooks.use(trail);
    expect(toolwareCode(refusal(() => hooks.use(trail, { name: "again" })))).toBe("TOOLWARE_DUPLICATE_PACK");
    await hooks.invoke(search, { q: "a" });
    expect(lineCount(file)).toBe(1);
    trail.close();
  });

  it("on the global and the agent layer of one call, the call is refused before any hook: no line, no run", async () => {
    const file = fresh();
    const trail = audit({ file });
    const hooks = new ToolHooks();
    const agent = new Agent({ role: "researcher" });
    hooks.use(trail);
    agent.use(trail);
    const error = await hooks.invoke(search, { q: "a" }, { agent }).catch((e: unknown) => e);
    expect(toolwareCode(error)).toBe("TOOLWARE_DUPLICATE_PACK");
    // One instance shared by two ToolHooks is one trail: each call writes one line.
    const other = new ToolHooks();
    other.use(trail);
    await hooks.invoke(search, { q: "b" });
    await other.invoke(search, { q: "c" });
    expect(lineCount(file)).toBe(2);
    trail.close();
  });

  it("a second audit() on a file this process writes is refused (TOOLWARE_AUDIT_FILE_IN_USE), by any path to it", () => {
    const file = fresh();
    const trail = audit({ file });
    const link = join(dir, `link-${n++}`);
    symlinkSync(dir, link);
    const name = file.slice(dir.length + 1);
    for (const path of [file, relative(process.cwd(), file), join(link, name), join(dir, "sub", "..", name)]) {
      if (path.includes("sub")) mkdirSync(join(dir, "sub"), { recursive: true });
      const error = refusal(() => audit({ file: path }));
      expect(error).toBeInstanceOf(TypeError);
      expect(toolwareCode(error)).toBe("TOOLWARE_AUDIT_FILE_IN_USE");
      expect((error as Error).message).toMatch(/^toolware\/audit: .* is written by another audit\(\) of this process/);
    }
    // Closed, the file is free for another audit(); the closed one, called again, cannot take it back.
    trail.close();
    const next = audit({ file });
    next.close();
  });

  it("a closed audit whose file another audit() took fails its line (the call is withheld), never writing twice", async () => {
    const file = fresh();
    const first = audit({ file });
    first.close();
    const second = audit({ file });
    const hooks = new ToolHooks();
    hooks.use(first);
    const out = await hooks.invoke(search, { q: "a" });
    expect(out.status).toBe("blocked");
    expect(out.reason).toMatch(/is written by another audit\(\)/);
    second.close();
  });
});
