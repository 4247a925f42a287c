import type { CommandGroup } from "../kit.js";
import { approver } from "./approver.js";
import { serve } from "./serve.js";

/** `toolware inbox` starts the approval inbox; `toolware inbox approver add|list|remove` manages its approvers. */
export const inbox: CommandGroup = {
  name: "inbox",
  summary: "start the approval inbox's server (@toolware/inbox); manage its approvers",
  description: [
    "Starts the approval inbox of @toolware/inbox (its API, its page, its webhooks) from a config file or flags,",
    "and manages its approvers. Every option and the config file: docs/inbox.md, The command.",
  ].join("\n"),
  commands: [approver],
  default: serve,
};
