// snippet: policy-watch.ts
import { ToolHooks } from "@toolware/core";
import { watchPolicy } from "@toolware/policy";

const policy = await watchPolicy("toolware.policy.yaml", {
  onEvent: (event) => {
    if (event.type === "reload")
      console.log(`policy v${event.version}: +${event.added} -${event.removed} ~${event.changed}`);
    if (event.type === "reload-error") console.error("policy edit refused, the last good one stays:", event.error);
  },
});
const hooks = new ToolHooks();
hooks.use(policy);
// On shutdown: stop watching (the policy in force stays registered until hooks.remove(policy)).
policy.close();
