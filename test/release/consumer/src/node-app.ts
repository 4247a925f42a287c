import { defineTool, ToolHooks } from "@toolware/core";
import { safePath } from "@toolware/packs/validate";
import { runStack } from "./web-app.js";

// The same stack as in the edge runtime and the browser, then a pack that needs Node (validate's paths).
const report = await runStack();
const hooks = new ToolHooks();
hooks.use(safePath({ tools: ["read_file"], root: process.cwd() }));
const readFile = defineTool({ name: "read_file", execute: ({ path }: { path: string }) => `read ${path}` });
const outside = await hooks.invoke(readFile, { path: "../../etc/passwd" });
const inside = await hooks.invoke(readFile, { path: "notes.md" });
console.log(JSON.stringify({ ...report, outside: [outside.status, outside.reason], inside: inside.result }));
