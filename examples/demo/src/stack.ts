import { scriptedHumanInput, ToolHooks, terminalHumanInput } from "@toolware/core";
import { analytics } from "@toolware/packs/analytics";
import { approval } from "@toolware/packs/approval";
import { cache } from "@toolware/packs/cache";
import { guardrails } from "@toolware/packs/guardrails";
import { loopGuard } from "@toolware/packs/loop-guard";
import { rateLimit } from "@toolware/packs/rate-limit";
import { redact } from "@toolware/packs/redact";
import { safePath } from "@toolware/packs/validate";

/**
 * The demo's hook stack: ordinary user code, built only from the public packs.
 * Priorities (higher = further out) decide the onion: analytics sees everything,
 * the loop guard and the guards run before the cache, and redaction is innermost
 * so every other hook only ever sees redacted results.
 */
export function buildStack(options: {
  interactive: boolean;
  onHumanAnswer?: (prompt: string, answer: string) => void;
}) {
  const human = options.interactive ? terminalHumanInput({ timeoutMs: 120_000 }) : scriptedHumanInput(["yes", "no"]);
  const hooks = new ToolHooks({
    humanInput: async (request) => {
      const answer = await human(request);
      options.onHumanAnswer?.(request.prompt, answer);
      return answer;
    },
  });
  const warnings = new Map<string, string[]>();
  const stats = analytics();

  const packs = [
    stats,
    loopGuard({
      maxRepeats: 3,
      sameInput: true,
      onWarn: (event) => warnings.set(event.ctx.callId, [...(warnings.get(event.ctx.callId) ?? []), event.message]),
    }),
    guardrails({ byRole: { junior_agent: { deny: [{ tag: "destructive" }, "send_email"] } } }),
    safePath({ tools: ["read_file", "delete_file"], root: "/workspace" }),
    approval({ tools: ["send_email"], timeoutMs: 120_000 }),
    rateLimit({ max: 3, per: "1m", tools: "web_search" }),
    cache({ tools: ["get_weather"], ttl: "10m" }),
    redact(),
  ];
  for (const pack of packs) hooks.use(pack);

  return {
    hooks,
    warnings,
    stats: () => stats.stats(),
    describe: () => packs.map((p) => p.name).join(" → "),
  };
}
