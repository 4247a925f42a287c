// snippet: readme-langchain.ts
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { ToolHooks } from "@toolware/core";
import { toolwareMiddleware } from "@toolware/langchain";
import { createAgent } from "langchain";

declare const hooks: ToolHooks, myTools: StructuredToolInterface[];
export const agent = createAgent({ model: "openai:gpt-5", tools: myTools, middleware: [toolwareMiddleware(hooks)] });
