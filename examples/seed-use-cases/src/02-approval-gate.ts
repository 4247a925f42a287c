// Seed use case 2, human approval gate: ask before send_email, make_purchase, delete_file, post_message.
// The seed approves on `response.lower() == 'yes'` but, in CrewAI, a hook that crashes (no terminal) lets
// the tool run; there is no timeout, no way to fix the arguments, and every call asks again. The pack
// fails closed (no answer, a crash or a cancel all deny), takes `edit {json}` to approve changed
// arguments, and can remember "always"/"never" for the rest of the run. A scripted human answers here.
import { defineTool, scriptedHumanInput, ToolHooks } from "@toolware/core";
import { type ApprovalDecision, approval } from "@toolware/packs/approval";

export interface ApprovalGateSummary {
  /** One entry per call, in order. */
  readonly calls: readonly { label: string; status: string; reason?: string }[];
  /** The arguments each tool really ran with. */
  readonly ran: readonly { tool: string; input: Record<string, unknown> }[];
  /** The questions the human was asked. */
  readonly questions: readonly string[];
  /** Every decision the pack reported, as `tool: source/approved`. */
  readonly decisions: readonly string[];
}

export async function main(log: (line: string) => void = console.log): Promise<ApprovalGateSummary> {
  const ran: { tool: string; input: Record<string, unknown> }[] = [];
  const tool = (name: string) =>
    defineTool({
      name,
      execute: (input: Record<string, unknown>) => {
        ran.push({ tool: name, input: { ...input } });
        return `${name} done`;
      },
    });
  const sendEmail = tool("send_email");
  const makePurchase = tool("make_purchase");
  const deleteFile = tool("delete_file");
  const postMessage = tool("post_message");
  const readFile = tool("read_file");

  const human = scriptedHumanInput([
    "yes", // send_email
    "no, over budget", // make_purchase
    'edit {"path":"tmp/old-report.txt"}', // delete_file: approve, but only the copy in tmp/
    "YES please", // send_email: not an explicit yes, so denied
    "always", // post_message: approved for the rest of this run
    // nothing left: the next question fails, and the call is denied
  ]);
  const decisions: string[] = [];
  const hooks = new ToolHooks({ humanInput: human });
  hooks.use(
    approval({
      tools: ["send_email", "make_purchase", "delete_file", "post_message"],
      remember: "tool",
      timeoutMs: 60_000,
      onDecision: (d: ApprovalDecision) => decisions.push(`${d.toolName}: ${d.source}/${d.approved}`),
    }),
  );

  const plan = [
    { label: "send_email", tool: sendEmail, input: { to: "team@example.com", subject: "Weekly report" } },
    { label: "make_purchase", tool: makePurchase, input: { item: "GPU", amount: 4999 } },
    { label: "delete_file", tool: deleteFile, input: { path: "reports/2024.txt" } },
    { label: "send_email again", tool: sendEmail, input: { to: "all@example.com", subject: "Oops" } },
    { label: "post_message", tool: postMessage, input: { channel: "#general", text: "Deployed" } },
    { label: "post_message again (remembered)", tool: postMessage, input: { channel: "#ops", text: "Done" } },
    { label: "read_file (no approval needed)", tool: readFile, input: { path: "notes.md" } },
    { label: "make_purchase with nobody left to ask", tool: makePurchase, input: { item: "desk", amount: 300 } },
  ];
  const calls: { label: string; status: string; reason?: string }[] = [];
  for (const { label, tool: t, input } of plan) {
    const outcome = await hooks.invoke(t, input);
    log(`${outcome.status === "ok" ? "✅" : "❌"} ${label}: ${outcome.result}`);
    calls.push(
      outcome.status === "ok" ? { label, status: "ok" } : { label, status: outcome.status, reason: outcome.reason },
    );
  }

  // A human who never answers: after timeoutMs the call is denied and the question withdrawn.
  const away = new ToolHooks({ humanInput: scriptedHumanInput(() => new Promise<string>(() => {})) });
  away.use(approval({ tools: "send_email", timeoutMs: 25 }));
  const late = await away.invoke(sendEmail, { to: "team@example.com" });
  log(`❌ send_email with nobody answering: ${late.result}`);
  calls.push({ label: "send_email with nobody answering", status: late.status, reason: late.reason });

  const questions = human.requests.map((r) => r.prompt.replace(/\n/g, " | "));
  for (const q of questions) log(`❓ ${q}`);
  return { calls, ran, questions, decisions };
}
