export { type OpenAIAgentsApprovalsOptions, openAIAgentsApprovals } from "./approvals.js";
export { type OpenAIAgentsCall, type OpenAIAgentsToolDetails, openAIAgentsCall } from "./call.js";
export { type GuardAgentOptions, guardAgent, type OpenAIAgentsToolInfo } from "./guard.js";
export { type OpenAIAgentsToolOutput, outcomeToToolOutput } from "./outcome.js";
export { tool } from "./tool.js";
