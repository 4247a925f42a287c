import { defineTool, ToolHooks } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { cache } from "@toolware/packs/cache";
import { guardrails } from "@toolware/packs/guardrails";
import { redact } from "@toolware/packs/redact";

/** What one run of the stack saw, as plain data (it crosses into Node from an edge VM or a browser page). */
export interface StackReport {
  readonly blocked: readonly [string, string | undefined];
  readonly first: string;
  readonly second: string;
  readonly runs: number;
  readonly cacheHits: number;
  readonly gated: readonly [string, string | undefined];
}

/**
 * A small hook stack with no Node in it: a guardrail blocks a destructive tool, redaction hides an e-mail and
 * a key, a cache answers the second identical call, and an approval gate asks the default (terminal) provider,
 * which in a runtime without a terminal refuses, so the gate blocks.
 */
export async function runStack(): Promise<StackReport> {
  let runs = 0;
  const profile = defineTool({
    name: "fetch_profile",
    execute: ({ id }: { id: number }) => {
      runs++;
      return `profile ${id}: ada@example.com, key sk-live-0123456789abcdef`;
    },
  });
  const deleteFile = defineTool({ name: "delete_file", destructive: true, execute: () => "deleted" });
  const sendEmail = defineTool({ name: "send_email", execute: ({ to }: { to: string }) => `sent to ${to}` });

  const hooks = new ToolHooks();
  const profiles = cache({ tools: ["fetch_profile"] });
  hooks.use(guardrails({ deny: [{ tag: "destructive" }] }));
  hooks.use(approval({ tools: ["send_email"] }));
  hooks.use(redact());
  hooks.use(profiles);

  const blocked = await hooks.invoke(deleteFile, { path: "plan.md" });
  const first = await hooks.invoke(profile, { id: 7 });
  const second = await hooks.invoke(profile, { id: 7 });
  const gated = await hooks.invoke(sendEmail, { to: "all@example.com" });
  return {
    blocked: [blocked.status, blocked.reason],
    first: first.result,
    second: second.result,
    runs,
    cacheHits: profiles.stats().hits,
    gated: [gated.status, gated.reason],
  };
}
