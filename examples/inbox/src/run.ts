import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { guardTools } from "@toolware/ai-sdk";
import { ToolHooks } from "@toolware/core";
import {
  createInbox,
  createSigner,
  fileAuditLog,
  inboxApproval,
  sqliteInboxStore,
  verifyAuditChain,
} from "@toolware/inbox";
import { createInboxServer } from "@toolware/inbox/server";
import { approval } from "@toolware/packs/approval";
import { generateText, type LanguageModel, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { approveOverHttp } from "./approver.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const email = (toolCallId: string, to: string, body: string) => ({
  content: [{ type: "tool-call" as const, toolCallId, toolName: "send_email", input: JSON.stringify({ to, body }) }],
  finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
  usage,
  warnings: [],
});

/** The scripted model: it mails Ann, then tries to mail every customer, then reports. */
export function scriptedModel(): LanguageModel {
  return new MockLanguageModelV3({
    doGenerate: [
      email("call-1", "ann@example.com", "Your plan is renewed."),
      email("call-2", "all-customers@example.com", "Prices go up next month."),
      {
        content: [{ type: "text" as const, text: "Ann is told; the announcement to all customers was rejected." }],
        finishReason: { unified: "stop" as const, raw: "stop" },
        usage,
        warnings: [],
      },
    ],
  });
}

/** What the example did: the emails actually sent, and what the agent was told for each call. */
export interface ExampleResult {
  readonly sent: readonly { to: string; callId: string }[];
  readonly toolResults: Readonly<Record<string, unknown>>;
  readonly text: string;
  readonly auditRecords: number;
}

/**
 * An agent loop (the AI SDK's own, with its offline mock model) whose `send_email` waits in the approval inbox;
 * an approver decides over the inbox's HTTP API while the agent waits.
 */
export async function runExample(
  print: (line: string) => void,
  model: () => LanguageModel = scriptedModel,
): Promise<ExampleResult> {
  const dir = mkdtempSync(join(tmpdir(), "toolware-inbox-example-"));
  // In production the keys come from TOOLWARE_INBOX_KEYS or a key file (signerFromEnv, signerFromFile).
  const signer = createSigner({ keys: [{ kid: "example", alg: "HS256", secret: randomBytes(32) }] });
  const auditFile = join(dir, "inbox-audit.jsonl");
  const inbox = createInbox({
    store: sqliteInboxStore({ file: join(dir, "inbox.db") }),
    signer,
    audit: fileAuditLog(auditFile),
    pollMs: 5,
  });
  const { token } = await inbox.approvers.add({ name: "alice", roles: ["ops"] });
  const server = await createInboxServer({ inbox, port: 0 }).listen();
  print(`inbox listening on ${server.url}`);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.close();
    await inbox.close();
  };
  try {
    const sent: { to: string; callId: string }[] = [];
    const tools = {
      send_email: tool({
        description: "Send an email",
        inputSchema: z.object({ to: z.string(), body: z.string() }),
        execute: async ({ to }, { toolCallId }) => {
          sent.push({ to, callId: toolCallId });
          return `sent to ${to}`;
        },
      }),
    };
    const hooks = new ToolHooks();
    hooks.use(approval({ tools: "send_email", ...inboxApproval({ inbox, mode: "wait", caller: "support-agent" }) }));
    const guarded = guardTools(hooks, tools, {
      onOutcome: (o) => print(`  agent:    ${o.toolName} (${o.callId}) ${o.status}${o.reason ? `: ${o.reason}` : ""}`),
    });
    // The approver works beside the agent. The API shows the arguments with secrets hidden and the addressee
    // visible, so a person can judge: a note to one customer is approved, a price announcement is rejected.
    const approver = approveOverHttp(
      server.url,
      token,
      2,
      (r) =>
        /price/i.test(String(r.input.body))
          ? { approve: false, reason: "price announcements go through marketing" }
          : { approve: true },
      print,
    );
    const result = await generateText({
      model: model(),
      tools: guarded,
      prompt: "Tell Ann her plan is renewed, and announce the new prices to everyone.",
      stopWhen: stepCountIs(5),
    });
    await approver;
    const toolResults = Object.fromEntries(
      result.steps.flatMap((s) => s.toolResults).map((r) => [r.toolCallId, r.output] as const),
    );
    print(`model: ${result.text}`);
    await close();
    // Every request and decision went to the hash-chained log: `toolware audit verify FILE` checks it the same way.
    const chain = verifyAuditChain(auditFile);
    print(`audit: ${chain.records} records, hash chain ${chain.ok ? "intact" : `broken at line ${chain.line}`}`);
    return { sent, toolResults, text: result.text, auditRecords: chain.records };
  } finally {
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
}
