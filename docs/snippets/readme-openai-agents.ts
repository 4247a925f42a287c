// snippet: readme-openai-agents.ts
import { Agent, type Tool } from "@openai/agents";
import type { ToolHooks } from "@toolware/core";
import { guardAgent } from "@toolware/openai-agents";

declare const hooks: ToolHooks, myTools: Tool[];
export const agent = guardAgent(new Agent({ name: "ops", tools: myTools }), hooks);
