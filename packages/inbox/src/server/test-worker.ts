import { Redis } from "ioredis";
import { createInbox } from "../inbox.js";
import { redisInboxStore } from "../redis-store.js";
import { sqliteInboxStore } from "../sqlite-store.js";
import { signer } from "../test-utils.js";
import { createInboxServer } from "./index.js";

// The inbox server in its own process, for the restart tests: `<sqlite|redis> <file|port> <listen port>`.
// It prints its URL and serves until it is killed.
const [kind, where, port] = process.argv.slice(2) as [string, string, string];
const store =
  kind === "redis"
    ? redisInboxStore({ client: new Redis({ port: Number(where), host: "127.0.0.1" }), prefix: "e2e:" })
    : sqliteInboxStore({ file: where });
const inbox = createInbox({ store, signer: signer() });
const live = await createInboxServer({ inbox, port: Number(port) }).listen();
process.stdout.write(`${JSON.stringify({ url: live.url, port: live.port })}\n`);
