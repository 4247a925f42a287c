// snippet: adapters-2.ts
import { defineTool, InputRejectedError, inputSchemaOf, ToolHooks } from "@toolware/core";
import { z } from "zod";

const forecast = defineTool({
  name: "forecast",
  description: "The weather for a city",
  inputSchema: z.object({ city: z.string().min(1), days: z.number().int().default(3) }),
  execute: ({ city, days }) => `${city}: sunny for ${days} days`, // city: string, days: number
});

const hooks = new ToolHooks();
hooks.before((ctx) => {
  console.log(ctx.toolInput); // { city: "Paris", days: 3 }: the schema's output, default applied
});

// What a model sends is unchecked JSON: the schema checks it (invoke's input type is the schema's output).
const fromModel = (text: string) => JSON.parse(text) as { city: string; days: number };
console.log((await hooks.invoke(forecast, fromModel('{ "city": "Paris" }'))).result); // Paris: sunny for 3 days

// Invalid input: no hook and no tool run; the model reads the issues and can try again.
const bad = await hooks.invoke(forecast, fromModel('{ "city": "" }'));
console.log(bad.status, bad.error instanceof InputRejectedError); // error true
console.log(bad.result);
// Tool execution failed. Tool: forecast. Error: toolware: invalid input: city: Too small: expected string to have >=1 characters

// Adapters hand the schema to the framework, typed by the tool's input.
console.log(inputSchemaOf(forecast) === forecast.inputSchema); // true
