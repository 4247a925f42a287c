// ai 6's MockLanguageModelV3 scripted turn by turn, and the agent each test builds around it.
import { Mastra } from "@mastra/core";
import { Agent } from "@mastra/core/agent";
import { InMemoryStore } from "@mastra/core/storage";
import { createTool } from "@mastra/core/tools";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import type { MastraToolHooks, MastraToolware } from "./index.js";

/** Mastra declares node >= 22.13: the suite's Node 22 leg runs the tests that drive it. */
export const mastraNode = (() => {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 13);
})();

/** A tool call the scripted model makes: [id, tool name, arguments (an object, or raw JSON text)]. */
export type Call = readonly [string, string, Record<string, unknown> | string];

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function turnOf(turn: readonly Call[] | string) {
  if (typeof turn === "string") {
    return {
      content: [{ type: "text", text: turn }],
      finishReason: { unified: "stop", raw: "stop" },
      usage,
      warnings: [],
    };
  }
  const content = turn.map(([toolCallId, toolName, input]) => ({
    type: "tool-call",
    toolCallId,
    toolName,
    input: typeof input === "string" ? input : JSON.stringify(input),
  }));
  return { content, finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] };
}

/** A model that answers each request with the next turn: tool calls, or a final text. */
export function scripted(...turns: (readonly Call[] | string)[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({ doGenerate: turns.map(turnOf) as never });
}

/** What the model was sent as tool results in its `n`-th request, by call id (text or JSON values). */
export function resultsSeen(model: MockLanguageModelV3, n: number): Record<string, unknown> {
  const seen: Record<string, unknown> = {};
  for (const message of (model.doGenerateCalls[n]?.prompt ?? []) as { role: string; content: unknown }[]) {
    if (message.role !== "tool" || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type: string; toolCallId: string; output: { value: unknown } }[]) {
      if (part.type === "tool-result") seen[part.toolCallId] = part.output.value;
    }
  }
  return seen;
}

/** A `send` tool that logs what it got and returns a token the hooks may redact. */
export function sendTool(log: unknown[], extra: { requireApproval?: boolean } = {}) {
  return createTool({
    id: "send",
    description: "sends a message",
    inputSchema: z.object({ to: z.string(), body: z.string().optional() }),
    ...extra,
    execute: async (input) => {
      log.push(input);
      return { sentTo: input.to, token: "sk-secret-123" };
    },
  });
}

/** An agent built with the guard's hooks and processor, registered on a Mastra with in-memory storage. */
export function guardedAgent(
  tw: MastraToolware,
  model: MockLanguageModelV3,
  tools: Record<string, ReturnType<typeof sendTool>>,
  config: { hooks?: MastraToolHooks; processor?: boolean } = {},
) {
  const agent = new Agent({
    id: "ops",
    name: "ops",
    instructions: "help",
    model: model as never,
    tools,
    hooks: config.hooks ?? tw.hooks,
    ...(config.processor === false ? {} : { outputProcessors: [tw.processor as never] }),
  });
  new Mastra({ agents: { ops: agent }, storage: new InMemoryStore(), logger: false });
  return agent;
}
