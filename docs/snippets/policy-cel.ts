// snippet: policy-cel.ts
import { compileCondition } from "@toolware/policy";

// What `match.when` runs, compiled once: try a condition before it goes into a file.
const escapes = compileCondition('has(args.path) && args.path.contains("..")');
escapes.evaluate({
  args: { path: "../etc/passwd" },
  tool: { name: "read_file", tags: [], destructive: false },
  agent: "junior_agent",
  crew: "",
  caller: "",
}); // true
