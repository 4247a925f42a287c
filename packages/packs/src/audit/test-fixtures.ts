// The child process of the crash test: makes calls through an audit pack until it is killed, and reports the call id
// of each outcome `invoke` returned, on stdout, with a synchronous write (nothing sits in a buffer when it dies).
// Run: tsx --conditions @toolware/source test-fixtures.ts <file> <durability> <workers> [stopAfter]
import { writeSync } from "node:fs";
import { defineTool, ToolHooks } from "@toolware/core";
import { audit } from "./index.js";

const [file, durability, workersArg, stopArg] = process.argv.slice(2);
if (file === undefined || (durability !== "fsync" && durability !== "write")) {
  throw new TypeError("usage: test-fixtures.ts <file> <fsync|write> <workers> [stopAfter]");
}
const workers = Number(workersArg ?? "1");
const stopAfter = stopArg === undefined ? Number.POSITIVE_INFINITY : Number(stopArg);

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const tool = defineTool({
  name: "write_note",
  execute: async ({ text }: { n: number; text: string }) => {
    await tick();
    return `stored ${text.length} chars`;
  },
});
const hooks = new ToolHooks();
hooks.use(audit({ file, durability, maxBytes: 256 * 1024 }));
hooks.before(function noOddTens(ctx) {
  if ((ctx.toolInput as { n: number }).n % 10 === 7) ctx.block("sevens are not stored");
});

let next = 0;
let returned = 0;
async function worker(): Promise<void> {
  while (returned < stopAfter) {
    const n = next++;
    // Lines of a few kilobytes, so that the kill often lands inside a write or an fsync.
    const outcome = await hooks.invoke(tool, { n, text: `note ${n} `.repeat(200 + (n % 7) * 100) });
    returned++;
    writeSync(1, `${outcome.callId}\n`);
  }
}

await Promise.all(Array.from({ length: workers }, worker));
writeSync(1, "idle\n");
// Stopped on request: wait to be killed, with nothing in flight.
setInterval(() => {}, 60_000);
