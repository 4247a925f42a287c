// snippet: error-handling-7.ts
import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";

type User = { id: number; manager?: User; reports: User[] };

const hooks = new ToolHooks();
const createUser = defineTool({
  name: "create_user",
  execute: (): User => {
    const boss: User = { id: 1, reports: [] };
    const user: User = { id: 2, manager: boss, reports: [] };
    boss.reports.push(user); // a cycle: no JSON form
    return user;
  },
});

const outcome = await hooks.invoke(createUser, {});
console.log(outcome.status, toolwareCode(outcome.error)); // error TOOLWARE_UNSERIALIZABLE_RESULT
console.log(outcome.result); // Tool ran but its result could not be formatted. Tool: create_user. Error: Converting circular structure to JSON …
console.log(outcome.raw?.id, outcome.trace[0]?.action); // 2 format-failed

// An after-hook can still answer with what the agent needs; respond() makes the call ok again.
hooks.after(function describeUser(ctx) {
  const user = ctx.rawToolResult as User | undefined;
  if (toolwareCode(ctx.error) === "TOOLWARE_UNSERIALIZABLE_RESULT") ctx.respond(`created user ${user?.id}`);
});
console.log((await hooks.invoke(createUser, {})).result); // created user 2
