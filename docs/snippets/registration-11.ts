// snippet: registration-11.ts
import { defineTool, ToolHooks, toolwareCode } from "@toolware/core";

const readFile = defineTool({
  name: "read_file",
  description: "Reads a file",
  tags: ["fs"],
  destructive: false,
  execute: ({ path }: { path: string }) => ({ path, text: `contents of ${path}` }),
  formatResult: (file) => file.text, // for results that are not strings
});

// Each field is checked where the tool is made: a typo or a wrong type is a TypeError with a code.
const mistakes: unknown[] = [
  { name: "rm", destructive: "yes", execute: () => "" }, // guardrails match on destructive === true
  { name: "rm", inputSchema: { type: "object" }, execute: () => "" }, // a JSON Schema is no Standard Schema
  { name: "--", execute: () => "" }, // only separators: no name filter could match it
];
for (const mistake of mistakes) {
  try {
    defineTool(mistake as never);
  } catch (error) {
    console.log(toolwareCode(error)); // TOOLWARE_INVALID_TOOL (each time)
  }
}

// Another framework's tool, named by its key: adapt it with defineTool.
const aiSdkTools = { weather: { description: "Current weather", execute: async (_input: object) => "sunny" } };
const weather = defineTool({
  name: "weather",
  description: aiSdkTools.weather.description,
  execute: (input: object) => aiSdkTools.weather.execute(input),
});

const hooks = new ToolHooks();
console.log((await hooks.invoke(readFile, { path: "notes.md" })).result); // contents of notes.md
console.log(await hooks.wrap(weather).execute({})); // sunny
