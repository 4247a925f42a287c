import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EdgeRuntime } from "edge-runtime";
import { build } from "esbuild";
import { chromium } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { expectStack, type StackReport } from "./helpers.js";

// The core and every pack that needs no Node, bundled for the browser from the installed tarballs, run a stack
// in two runtimes that have no Node: Vercel's edge runtime and headless Chromium.
const release = inject("release");
const CHROMIUM = process.env.TOOLWARE_CHROMIUM ?? "/usr/bin/chromium";
// As root and offline: no sandbox, and none of Chromium's own background connections.
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
const EVALUATE = "toolwareStack.runStack().then((report) => JSON.stringify({ report, loaded: toolwareStack.loaded }))";

interface RuntimeRun {
  readonly report: StackReport;
  readonly loaded: Record<string, number>;
}

/** A browser bundle (IIFE exposing `toolwareStack`) of an entry of the consumer project. */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [join(release.appDir, entry)],
    absWorkingDir: release.appDir,
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "toolwareStack",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}

function expectRun(run: RuntimeRun): void {
  expectStack(run.report, /this runtime has no terminal/);
  expect(Object.keys(run.loaded).sort()).toEqual(["core", ...release.neutralPacks].sort());
  for (const [name, count] of Object.entries(run.loaded)) expect(count, name).toBeGreaterThan(0);
}

describe("a browser bundle of the core and the runtime-neutral packs", () => {
  let code = "";
  beforeAll(async () => {
    code = await bundle("src/bundle-entry.ts");
  });

  it("bundles with no Node built-in, and a pack that needs Node does not, so the check can fail", async () => {
    expect(release.neutralPacks.length).toBeGreaterThanOrEqual(10);
    expect(code).toContain("toolwareStack");
    // esbuild fails on a static or literal dynamic import of a built-in; this guards the output as well.
    expect(code).not.toMatch(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']node:/);
    writeFileSync(join(release.appDir, "src/node-entry.ts"), 'export * from "@toolware/packs/validate";\n');
    await expect(bundle("src/node-entry.ts")).rejects.toThrow(/node:(path|fs\/promises)/);
  });

  it("runs the stack in Vercel's edge runtime, which has no process", async () => {
    const runtime = new EdgeRuntime({ initialCode: code });
    expect(await runtime.evaluate("typeof process")).toBe("undefined");
    const json = (await runtime.evaluate(EVALUATE)) as string;
    expectRun(JSON.parse(json) as RuntimeRun);
  });

  it("runs the stack in headless Chromium", async () => {
    // Fails, never skips, without Chromium: .ci/run installs Debian's package; elsewhere apt-get install chromium.
    expect(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: apt-get install -y chromium`).toBe(true);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, timeout: 60_000 });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await page.setContent("<!doctype html><title>toolware</title>");
      await page.addScriptTag({ content: code });
      const json = (await page.evaluate(EVALUATE)) as string;
      expect(await page.evaluate("typeof process")).toBe("undefined");
      expect(errors).toEqual([]);
      expectRun(JSON.parse(json) as RuntimeRun);
    } finally {
      await browser.close();
    }
  });
});
