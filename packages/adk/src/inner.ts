import { type AgentTool, type BaseAgent, type BaseTool, isAgentTool, isLlmAgent, type LlmAgent } from "@google/adk";
import { claimGuard, guardOf, type ToolHooks } from "@toolware/core";
import type { ChainOptions } from "./chain.js";
import { startChain } from "./chain.js";
import { outcomeToResponse } from "./outcome.js";

// ADK keeps an AgentTool's agent in a field its types mark private.
const agentOf = (tool: AgentTool): BaseAgent => (tool as unknown as { agent: BaseAgent }).agent;

const ALREADY = "TOOLWARE_ADK_ALREADY_GUARDED";

/** What the inner guards need of the plugin. @internal */
export interface InnerGuard {
  readonly hooks: ToolHooks;
  readonly options: ChainOptions;
  /** Whether this call is guarded by a toolware plugin of the same hooks already. */
  handled(context: Parameters<BaseTool["runAsync"]>[0]["toolContext"]): boolean;
}

// A tool of an agent run by an AgentTool: ADK's inner Runner has no plugins, so the tool itself runs the chain.
function guardTool(tool: BaseTool, guard: InnerGuard): void {
  if (guardOf(tool) === guard.hooks) return;
  claimGuard(tool, guard.hooks, ALREADY, `tool ${tool.name}`);
  const raw = tool.runAsync;
  tool.runAsync = async function toolwareRunAsync(this: BaseTool, request) {
    const { args, toolContext } = request;
    // Shared with an agent of a guarded Runner: that Runner's plugin runs the chain.
    if (guard.handled(toolContext)) return raw.call(this, request);
    const started = startChain(guard.options, tool, args, toolContext, (input) =>
      raw.call(this, { args: input, toolContext }),
    );
    return outcomeToResponse(await started.outcome, started.facts);
  };
}

function guardAgent(agent: BaseAgent, guard: InnerGuard): void {
  if (guardOf(agent) === guard.hooks) return;
  claimGuard(agent, guard.hooks, ALREADY, `agent ${agent.name}`);
  for (const sub of agent.subAgents) guardAgent(sub, guard);
  if (!isLlmAgent(agent)) return;
  const llm = agent as LlmAgent;
  // Tools of toolsets (MCP, …) are listed per run: guarded as the agent lists them.
  const canonicalTools = llm.canonicalTools;
  llm.canonicalTools = async function guardedCanonicalTools(this: LlmAgent, ...args) {
    const tools = await canonicalTools.apply(this, args);
    for (const t of tools) {
      if (isAgentTool(t)) guardAgent(agentOf(t), guard);
      guardTool(t, guard);
    }
    return tools;
  };
}

/** Guards the agent tree an AgentTool runs (its agent, sub-agents and their AgentTools). @internal */
export function guardAgentTool(tool: AgentTool, guard: InnerGuard): void {
  guardAgent(agentOf(tool), guard);
}
