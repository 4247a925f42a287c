// snippet: readme-policy-1.ts
import { ToolHooks } from "@toolware/core";
import { loadPolicy } from "@toolware/policy";

const hooks = new ToolHooks();
hooks.use(await loadPolicy("toolware.policy.yaml"));
