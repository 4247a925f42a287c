import { spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Inbox } from "../contract.js";
import { createInbox } from "../inbox.js";
import { createInboxServer } from "../server/index.js";
import { sqliteInboxStore } from "../sqlite-store.js";
import { signer, tempDir } from "../test-utils.js";

const root = new URL("../../../../", import.meta.url).pathname;
const tsx = join(root, "node_modules/tsx/dist/cli.mjs");
const worker = new URL("./test-worker.ts", import.meta.url).pathname;

// Runs one agent process to its end; resolves to the JSON line it printed.
function agentProcess(args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, "--conditions", "@toolware/source", worker, ...args], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").at(-1) as string) as Record<string, unknown>)
        : reject(new Error(`the agent process exited (${code}): ${err}`)),
    );
  });
}

const { dir, remove } = tempDir();
let inbox: Inbox | undefined;
afterAll(async () => {
  await inbox?.close();
  remove();
});

describe("OpenAI Agents across processes: one process pauses, the inbox decides over HTTP, others resume", () => {
  it("the tool runs once, in the process that resumed after the decision; a third process runs nothing", async () => {
    const db = join(dir, "inbox.db");
    const state = join(dir, "state.json");
    const paused = (await agentProcess(["pause", db, state])) as { pending: { requestId: string; url: string }[] };
    expect(paused.pending).toHaveLength(1);
    const requestId = paused.pending[0]?.requestId as string;
    inbox = createInbox({ store: sqliteInboxStore({ file: db }), signer: signer() });
    const { token } = await inbox.approvers.add({ name: "boss", roles: ["approver"] });
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const app = createInboxServer({ inbox }).app;
    const shown = (await (await app.request(`/api/requests/${requestId}`, { headers })).json()) as {
      request: { digest: string };
    };
    const approved = await app.request(`/api/requests/${requestId}/approve`, {
      method: "POST",
      headers,
      body: JSON.stringify({ digest: shown.request.digest }),
    });
    expect(approved.status).toBe(200);
    expect(await agentProcess(["resume", db, state])).toMatchObject({
      decided: 1,
      ran: ["ann@example.com"],
      final: "done",
    });
    const third = (await agentProcess(["resume", db, state])) as { ran: string[]; outputs: string[] };
    expect(third.ran).toEqual([]);
    expect(third.outputs.join()).toMatch(/was used already/);
  }, 120_000);
});
