// snippet: readme-ai-sdk.ts
import { guardTools } from "@toolware/ai-sdk";
import type { ToolHooks } from "@toolware/core";
import { generateText, type LanguageModel, stepCountIs, type ToolSet } from "ai";

declare const hooks: ToolHooks, model: LanguageModel, myTools: ToolSet;
const tools = guardTools(hooks, myTools); // the same tool set and types: every call runs the chain
await generateText({ model, tools, prompt: "Close account c-7", stopWhen: stepCountIs(5) });
