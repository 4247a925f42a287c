import type { CommandGroup } from "../kit.js";
import { summary } from "./summary.js";
import { verifyCommand } from "./verify.js";

/** `toolware audit <file>` summarises a trail of @toolware/packs/audit; `toolware audit verify <file>` checks an inbox log. */
export const audit: CommandGroup = {
  name: "audit",
  summary: "summarise an audit trail written by @toolware/packs/audit; verify an inbox decision log",
  description: [
    "Summarises an audit trail written by @toolware/packs/audit: calls by tool and status, block reasons, the",
    "slowest calls. Reads <file> and the files it rotated to (<file>.1, <file>.2, …) unless --no-rotated.",
    "`toolware audit verify <file>` checks the hash chain of a decision log of @toolware/inbox instead",
    "(a file named like a command is given as ./verify).",
  ].join("\n"),
  commands: [verifyCommand],
  default: summary,
};
