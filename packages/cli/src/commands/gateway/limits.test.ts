// `toolware gateway` names each call's upstream for the policy: a `key: upstream` rate limit counts each upstream of
// the config apart, and `key: caller+upstream` each client on each.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";

const root = new URL("../../../../../", import.meta.url).pathname;
const serverRequire = createRequire(join(root, "packages/gateway/package.json"));
const manifest = serverRequire.resolve("@modelcontextprotocol/server-filesystem/package.json");
const serverBin = join(
  dirname(manifest),
  (serverRequire(manifest) as { bin: Record<string, string> }).bin["mcp-server-filesystem"] ?? "",
);

const work = realpathSync(mkdtempSync(join(tmpdir(), "toolware-cli-limits-")));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("toolware gateway: limits per upstream", () => {
  it("key: upstream gives each upstream of the config its own count", async () => {
    writeFileSync(
      join(work, "policy.yaml"),
      `version: 1
default: allow
rules:
  - name: one-per-upstream
    packs:
      rate-limit: { max: 1, per: 1m, key: upstream }
`,
    );
    // The upstream after `--` is "left"; the config adds "right": the same server, by another name.
    const right = { name: "right", command: process.execPath, args: [serverBin, work] };
    writeFileSync(join(work, "gateway.json"), JSON.stringify({ name: "left", upstreams: [right] }));
    const loader = new URL("node_modules/tsx/dist/loader.mjs", `file://${root}`).href;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        "--conditions",
        "@toolware/source",
        "--import",
        loader,
        new URL("../../bin.ts", import.meta.url).pathname,
        "gateway",
        "--policy",
        join(work, "policy.yaml"),
        "--config",
        join(work, "gateway.json"),
        "--",
        process.execPath,
        serverBin,
        work,
      ],
      cwd: root,
      stderr: "pipe",
    });
    const client = new Client({ name: "limits-e2e", version: "1.0.0" });
    await client.connect(transport);
    try {
      const call = async (name: string) => {
        const r = await client.callTool({ name, arguments: {} });
        return r.isError === true ? "refused" : "ok";
      };
      expect(await call("left__list_allowed_directories")).toBe("ok");
      expect(await call("right__list_allowed_directories")).toBe("ok");
      expect(await call("left__list_allowed_directories")).toBe("refused");
      expect(await call("right__list_allowed_directories")).toBe("refused");
    } finally {
      await client.close();
    }
  }, 60_000);
});
