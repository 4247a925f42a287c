// snippet: error-handling-2.ts
import { defineTool, HookFailedError, ToolHooks } from "@toolware/core";

const sendEmail = defineTool({ name: "send_email", execute: () => "sent" });
const quotaService = { check: async (): Promise<boolean> => Promise.reject(new Error("quota service down")) };

// block (the default): the failing hook blocks the call; fail closed.
const guarded = new ToolHooks();
guarded.before(async function checkQuota() {
  return quotaService.check();
});
const blocked = await guarded.invoke(sendEmail, {});
console.log(blocked.status, blocked.reason); // blocked hook checkQuota failed: quota service down
console.log(blocked.result); // Tool execution blocked by hook. Tool: send_email. Reason: hook checkQuota failed: quota service down

// continue: the failure is reported (trace, hook:error) and the call goes on as if the hook had returned nothing.
const observed = new ToolHooks();
observed.after(
  function metrics() {
    throw new Error("statsd unreachable");
  },
  { onError: "continue" },
);
const ok = await observed.invoke(sendEmail, {});
console.log(ok.status, ok.result, ok.trace[0]?.action); // ok sent failed

// throw: invoke() rejects with HookFailedError; outer hooks' policies do not swallow it.
const strict = new ToolHooks({ onHookError: "throw" });
strict.before(async function checkQuota() {
  return quotaService.check();
});
try {
  await strict.invoke(sendEmail, {});
} catch (error) {
  if (error instanceof HookFailedError) console.log(error.message, error.hook, error.phase, error.cause);
  // toolware: hook checkQuota failed: quota service down checkQuota before Error: quota service down
}
