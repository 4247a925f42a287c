// The README's first screen is the product's front page: it names every published package and shows each adapter.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adapterFolders } from "./check-adapter-imports.js";
import { publishablePackages, ROOT } from "./workspace.js";

const SCREEN = 90;
const readme = readFileSync(join(ROOT, "README.md"), "utf8").split("\n");
const screen = readme.slice(0, SCREEN).join("\n");

describe("the README's first screen", () => {
  it("keeps the demo and the gate as its first two commands", () => {
    expect(readme.slice(2, 6)).toEqual([
      "```sh",
      "npx -y pnpm@12.4.2 install && npx -y pnpm@12.4.2 demo   # the demo: a scripted crew whose tool calls run through a real hook stack",
      "npx -y pnpm@12.4.2 install && npx -y pnpm@12.4.2 test   # the gate: every check, on Node 20 and again on Node 22",
      "```",
    ]);
  });

  it("names every published package in the package table, linked to its folder", () => {
    const names = publishablePackages().map((p) => p.name);
    expect(names.length).toBeGreaterThanOrEqual(9);
    for (const pkg of publishablePackages()) {
      const folder = pkg.dir.split(/[\\/]/).at(-1);
      expect(screen, pkg.name).toContain(`| [\`${pkg.name}\`](packages/${folder}) `);
    }
  });

  it("shows a compiled set-up for each framework adapter, linked to its page, and says the packages are ESM only", () => {
    const frameworks = adapterFolders().filter((f) => ["ai-sdk", "langchain", "mcp", "openai-agents"].includes(f));
    expect(frameworks).toHaveLength(4);
    for (const folder of frameworks) {
      expect(screen).toContain(`// snippet: readme-${folder}.ts`);
      expect(screen).toMatch(new RegExp(`\\(\\[\`@toolware/${folder}\`\\]\\(docs/adapters\\.md#[\\w-]+\\)\\)`));
    }
    expect(screen).toMatch(/ES modules only/);
    expect(screen).toContain("npm pkg set type=module");
  });

  it("describes pack:tarballs as writing one tarball per package", () => {
    const text = readme.join("\n");
    expect(text).toMatch(/pack:tarballs {4}# one tarball per package/);
    expect(text).not.toMatch(/toolware-core\.tgz and \.packs\/toolware-packs\.tgz/);
  });
});

describe("the adapter pages", () => {
  it("show, per adapter, an offline run with the framework's own test model", () => {
    const page = readFileSync(join(ROOT, "docs/adapters.md"), "utf8");
    const offline = [...page.matchAll(/^### Try it offline\n\n[\s\S]*?```ts\n\/\/ snippet: (\S+)/gm)].map((m) => m[1]);
    expect(offline).toEqual([
      "adapters-mcp-offline.ts",
      "adapters-ai-sdk-offline.ts",
      "adapters-langchain-offline.ts",
      "adapters-openai-agents-offline.ts",
      "adapters-mastra-offline.ts",
      "adapters-adk-offline.ts",
    ]);
    const snippets = readdirSync(join(ROOT, "docs/snippets"));
    const models = {
      "ai-sdk": "ai/test",
      langchain: "@langchain/core/testing",
      "openai-agents": "@openai/agents/testing",
      mcp: "@modelcontextprotocol/sdk/inMemory.js",
      mastra: "ai/test",
      // ADK ships no test model: the offline run subclasses its own BaseLlm, the documented extension point.
      adk: "@google/adk",
    };
    for (const [adapter, module] of Object.entries(models)) {
      const file = `adapters-${adapter}-offline.ts`;
      expect(snippets).toContain(file);
      expect(readFileSync(join(ROOT, "docs/snippets", file), "utf8")).toContain(`from "${module}"`);
    }
  });
});
