#!/usr/bin/env node
// The `toolware` command: `toolware audit <file>` summarises an audit trail (see docs/packs/audit.md).
import { runToolwareCli } from "../dist/audit/cli.js";

process.exitCode = runToolwareCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
