import type { CommandGroup } from "../kit.js";
import { defineCommand, EXIT, usageError } from "../kit.js";
import { openInbox, throwawaySigner } from "./open.js";
import { STORE_OPTIONS, settingsFrom } from "./settings-from.js";

const ROLE = /^[^\s,]{1,100}$/;

async function withInbox<T>(
  options: { config?: string | undefined; store?: string | undefined },
  cwd: string,
  use: (inbox: Awaited<ReturnType<typeof openInbox>>) => Promise<T>,
): Promise<T> {
  const inbox = await openInbox(settingsFrom(options, cwd), throwawaySigner());
  try {
    return await use(inbox);
  } finally {
    await inbox.close();
  }
}

const add = defineCommand({
  name: "add",
  summary: "add (or replace) an approver and print its token, once",
  description: [
    "Adds an approver to the inbox's store, or replaces the one of that name (its old token stops working).",
    "Prints the new token once, on stdout: only its SHA-256 hash is stored, so it cannot be shown again.",
  ].join("\n"),
  args: ["name"],
  options: {
    ...STORE_OPTIONS,
    role: { type: "string", value: "ROLE[,ROLE…]", description: "the approver's roles, comma-separated" },
    json: { type: "boolean", description: "print { name, roles, token } as JSON" },
  },
  failure: "the store cannot be opened, or the name or a role is not accepted",
  run({ positionals, options }, io) {
    const name = positionals[0] as string;
    const roles = options.role === undefined ? [] : options.role.split(",");
    for (const role of roles) {
      if (!ROLE.test(role))
        throw usageError(`--role takes names without spaces, comma-separated, got ${JSON.stringify(options.role)}`);
    }
    return withInbox(options, io.cwd, async (inbox) => {
      const replaced = (await inbox.approvers.list()).some((a) => a.name === name);
      const { approver, token } = await inbox.approvers.add({ name, roles });
      if (options.json) {
        io.out(`${JSON.stringify({ name: approver.name, roles: approver.roles, token })}\n`);
      } else {
        const as = approver.roles.length === 0 ? "" : ` (roles: ${approver.roles.join(", ")})`;
        io.err(
          `toolware inbox: approver ${approver.name}${as} ${replaced ? "replaced: the old token no longer works" : "added"}\n`,
        );
        io.err(
          "toolware inbox: its token follows, shown this once: hand it to the approver, it cannot be shown again\n",
        );
        io.out(`${token}\n`);
      }
      return EXIT.ok;
    });
  },
});

const list = defineCommand({
  name: "list",
  summary: "list the approvers and their roles (never their tokens)",
  description: "Lists the approvers in the inbox's store with their roles. Tokens are stored hashed: none is shown.",
  args: [],
  options: { ...STORE_OPTIONS, json: { type: "boolean", description: "print [{ name, roles }] as JSON" } },
  failure: "the store cannot be opened",
  run({ options }, io) {
    return withInbox(options, io.cwd, async (inbox) => {
      const approvers = await inbox.approvers.list();
      if (options.json) io.out(`${JSON.stringify(approvers.map((a) => ({ name: a.name, roles: a.roles })))}\n`);
      else if (approvers.length === 0) io.err("toolware inbox: no approvers yet (toolware inbox approver add NAME)\n");
      else for (const a of approvers) io.out(`${a.name}${a.roles.length === 0 ? "" : `  ${a.roles.join(",")}`}\n`);
      return EXIT.ok;
    });
  },
});

const remove = defineCommand({
  name: "remove",
  summary: "remove an approver: its token and its page sessions stop working",
  description: "Removes an approver from the inbox's store: its token stops working at once, and so do its sessions.",
  args: ["name"],
  options: { ...STORE_OPTIONS },
  failure: "there is no approver of that name, or the store cannot be opened",
  run({ positionals, options }, io) {
    const name = positionals[0] as string;
    return withInbox(options, io.cwd, async (inbox) => {
      if (!(await inbox.approvers.remove(name))) {
        io.err(`toolware inbox: no approver named ${JSON.stringify(name)}\n`);
        return EXIT.failure;
      }
      io.err(`toolware inbox: approver ${name} removed\n`);
      return EXIT.ok;
    });
  },
});

/** `toolware inbox approver add|list|remove`: the inbox's approvers, in its store. */
export const approver: CommandGroup = {
  name: "approver",
  summary: "add, list and remove the inbox's approvers (tokens stored hashed)",
  description: [
    "The inbox's approvers, kept in its store (--store or the config file's store, as `toolware inbox` uses it).",
    "Tokens are 256 random bits, stored as SHA-256 hashes: `add` prints a new one once.",
  ].join("\n"),
  commands: [add, list, remove],
};
