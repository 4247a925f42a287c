import type { Command } from "../command.js";
import { audit } from "./audit/index.js";
import { gateway } from "./gateway/index.js";
import { hook } from "./hook/index.js";
import { inbox } from "./inbox/index.js";
import { policy } from "./policy/index.js";

/**
 * Every command of `toolware`, in the order `toolware --help` lists them. A new command is a folder beside
 * `audit/` (its `index.ts` exporting `defineCommand({ … })` or a group of commands, and its tests) plus one line here.
 */
export const commands: readonly Command[] = [audit, gateway, hook, inbox, policy];
