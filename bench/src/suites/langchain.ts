import { AIMessage, createAgent, createMiddleware, FakeToolCallingModel, HumanMessage, tool } from "langchain";
import { z } from "zod";
import { EXPECTED, input, TOOL_NAME, trivialTool } from "../fixtures.js";
import { type Cases, countsHooks, expectString, runCase, type Subject } from "../harness.js";

// LangChain.js v1 `createAgent` with N `wrapToolCall` middlewares, each `(request, handler) => handler(request)`.
// Two paths, both running the agent's own ToolNode with its composed wrapToolCall chain:
// - node:  `agent.graph.nodes.tools.bound.invoke({ messages: [aiMessage] })` — the compiled graph's tool node
//          (public: ReactAgent#graph → Pregel#nodes → PregelNode#bound, a Runnable), without the Pregel loop;
// - agent: `agent.invoke({ messages: [human] })` — the full agent loop with a fake model that asks for the tool
//          once, then answers.

const COUNTS = [0, 1, 10, 50] as const;
const toolCall = { name: TOOL_NAME, args: { query: input.query }, id: "call_1", type: "tool_call" as const };
const aiMessage = new AIMessage({ content: "", tool_calls: [toolCall] });
const human = new HumanMessage("use the tool");

interface ToolMessageLike {
  content: unknown;
  getType(): string;
}
interface InvokableNode {
  invoke(state: { messages: unknown[] }): Promise<{ messages: ToolMessageLike[] }>;
}

function agentWith(n: number, probe?: () => void) {
  const benchTool = tool(trivialTool, {
    name: TOOL_NAME,
    description: "the trivial benchmark tool",
    schema: z.object({ query: z.string() }),
  });
  const middleware = Array.from({ length: n }, (_, i) =>
    createMiddleware({
      name: `pass_through_${i}`,
      wrapToolCall: (request, handler) => {
        probe?.();
        return handler(request);
      },
    }),
  );
  const model = new FakeToolCallingModel({ toolCalls: [[toolCall], []] });
  return createAgent({ model, tools: [benchTool], middleware });
}

function toolNodeOf(agent: ReturnType<typeof agentWith>): InvokableNode {
  const nodes = (agent.graph as unknown as { nodes: Record<string, { bound: InvokableNode }> }).nodes;
  const node = nodes.tools;
  if (node === undefined) throw new Error("langchain: the agent has no `tools` node");
  return node.bound;
}

function toolResultOf(messages: readonly ToolMessageLike[]): unknown {
  return messages.find((m) => m.getType() === "tool")?.content;
}

const check = expectString(EXPECTED);
const direct: Subject = {
  id: "direct",
  label: "direct `await tool(input)`",
  hooks: 0,
  run: () => trivialTool(input),
  check,
};

function viaNode(n: number): Subject {
  const node = toolNodeOf(agentWith(n));
  return {
    id: `langchain-node-${n}`,
    label: `LangChain ToolNode (agent.graph.nodes.tools), ${n} wrapToolCall`,
    hooks: n,
    run: () => node.invoke({ messages: [aiMessage] }),
    check: (out) => check(toolResultOf((out as { messages: ToolMessageLike[] }).messages)),
    verify: countsHooks((probe) => {
      const probed = toolNodeOf(agentWith(n, probe));
      return () => probed.invoke({ messages: [aiMessage] });
    }, n),
  };
}

function viaAgent(n: number): Subject {
  const agent = agentWith(n);
  return {
    id: `langchain-agent-${n}`,
    label: `LangChain createAgent → agent.invoke, ${n} wrapToolCall`,
    hooks: n,
    run: () => agent.invoke({ messages: [human] }),
    check: (out) => check(toolResultOf((out as { messages: ToolMessageLike[] }).messages)),
    verify: countsHooks((probe) => {
      const probed = agentWith(n, probe);
      return () => probed.invoke({ messages: [human] });
    }, n),
  };
}

const cases: Cases = {};
for (const n of COUNTS) {
  cases[`node-${n}`] = () => [direct, viaNode(n)];
  cases[`agent-${n}`] = () => [direct, viaAgent(n)];
}

await runCase("langchain", cases, { rounds: 16, roundMs: 60 }, [
  "langchain 1.5.14 / @langchain/core 1.4.0. Lowest public path that runs the agent's tool node with its wrapToolCall chain: `createAgent(...).graph.nodes.tools.bound.invoke({ messages: [aiMessage] })` (ReactAgent#graph → Pregel#nodes → PregelNode#bound); the full loop is `agent.invoke` with `FakeToolCallingModel` (one tool call, then an answer: two model calls per tool call).",
  "The tool is `tool(trivialTool, { schema: z.object({ query: z.string() }) })`, so every LangChain call also validates its input with zod and runs LangChain's callback machinery.",
]);
