// What bin/toolware.js runs: the command line of this process, its streams, its exit code.
import { runToolware } from "./cli.js";

const stop = new AbortController();
// A long-running command ends on `io.signal`; one that does not listen is ended after 2 s, or at a second Ctrl-C.
for (const name of ["SIGINT", "SIGTERM"] as const) {
  process.once(name, () => {
    stop.abort(new Error(`received ${name}`));
    setTimeout(() => process.exit(130), 2000).unref();
    process.once(name, () => process.exit(130));
  });
}

process.exitCode = await runToolware(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  signal: stop.signal,
});
