import { Agent, type AgentOutputType, type FunctionTool, type RunContext, type Tool as SdkTool } from "@openai/agents";
import {
  adviseDeveloper,
  type BindFunction,
  bindCall,
  claimGuard,
  defineTool,
  guardOf,
  HookFailedError,
  notifyOutcome,
  type OutcomeListener,
  type PerCallBindings,
  readArguments,
  refusedOutcome,
  type Tool,
  type ToolCallHookContext,
  ToolHooks,
  ToolwareError,
  ToolwareTypeError,
} from "@toolware/core";
import { asCall, asksThroughRunState } from "./approvals.js";
import { FRAMEWORK_NAME, type OpenAIAgentsCall, type OpenAIAgentsToolDetails } from "./call.js";
import { checkOptions } from "./options.js";
import { outcomeToToolOutput } from "./outcome.js";

/** What the app says about a tool that its FunctionTool cannot: what guards and selectors read. */
export interface OpenAIAgentsToolInfo {
  destructive?: boolean;
  tags?: readonly string[];
}

/** Options of {@link guardAgent}. */
export interface GuardAgentOptions<TContext = unknown> {
  /** Picks the agent, task and crew of each call (from `call.context`, …). A throw or a wrong value fails that call closed. */
  bind?: BindFunction<OpenAIAgentsCall<TContext>>;
  /** Told how every call that ran its chain ended; what it throws goes to the ToolHooks' `onListenerError`. */
  onOutcome?: OutcomeListener<OpenAIAgentsCall<TContext>>;
  /** Per tool name: `destructive` and `tags` for guards and selectors. */
  tools?: Readonly<Record<string, OpenAIAgentsToolInfo>>;
  /**
   * Agents used as tools (`agent.asTool()`): they run their own loop, and the SDK gives no way from
   * such a tool back to its agent. Any Agent (typed loosely so agents of every output type fit).
   */
  agents?: readonly Pick<Agent<TContext>, "name" | "tools">[];
}

// Inside, agents and tools of any context type are handled alike: only their tool calls are touched.
type AnyAgent = Agent<unknown, AgentOutputType>;
type AnyFunctionTool = FunctionTool<unknown, never, unknown>;
type Invoke = AnyFunctionTool["invoke"];
type NeedsApproval = AnyFunctionTool["needsApproval"];

// The text of the SDK's default errorFunction: the tool threw, and the SDK kept the reason to itself.
const HIDDEN_ERROR = "An error occurred while running the tool. Please try again.";
const ADAPTER = "@toolware/openai-agents guardAgent";

const ALREADY = "TOOLWARE_OPENAI_ALREADY_GUARDED";
// Tools whose hidden errors the developer was told about: once per tool, not once per failing call.
const advised = new WeakSet<object>();
const HIDDEN_ADVICE =
  "the tool failed and the SDK's default errorFunction hid why: create it with tool() from @toolware/openai-agents, " +
  "or pass errorFunction: null, so that toolware reports the error";

// The details the tool gets: the SDK's (symbol keys included), with toolware's signal, so hook timeouts reach it too.
function withSignal(details: OpenAIAgentsToolDetails | undefined, signal: AbortSignal): OpenAIAgentsToolDetails {
  if (details === undefined) return { signal };
  const descriptors = Object.getOwnPropertyDescriptors(details);
  descriptors.signal = { value: signal, writable: true, enumerable: true, configurable: true };
  return Object.create(Object.getPrototypeOf(details), descriptors) as OpenAIAgentsToolDetails;
}

function parseArguments(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ToolwareError("TOOLWARE_OPENAI_INVALID_ARGUMENTS", "the model's arguments are not valid JSON", {
      cause: error,
    });
  }
}

// Whether the approval pack would ask for this call: decided before the chain runs, since the SDK
// needs the answer before invoke. The pack's tool selector is asked with what is known now; a selector
// that cannot answer (it throws) counts as asking, so a doubt interrupts rather than runs.
function wouldAsk(hooks: ToolHooks, probe: Probe, bound: PerCallBindings): boolean {
  if (!asksThroughRunState(hooks)) return false;
  const query = {
    toolName: probe.toolName,
    ...(bound.agent ? { agent: bound.agent } : {}),
    ...(bound.crew ? { crew: bound.crew } : {}),
  };
  for (const h of hooks.explain(query)) {
    if (h.pack !== "approval") continue;
    const filter = h.tools;
    if (!h.conditional || typeof filter !== "function") return true;
    try {
      if ((filter as (ctx: ToolCallHookContext) => unknown)(probe as unknown as ToolCallHookContext) === true)
        return true;
    } catch {
      return true;
    }
  }
  return false;
}

/** What a selector can read before the call runs. */
interface Probe {
  readonly toolName: string;
  readonly tool: Tool<Record<string, unknown>, unknown>;
  readonly toolInput: Record<string, unknown>;
  readonly agent: PerCallBindings["agent"];
  readonly task: PerCallBindings["task"];
  readonly crew: PerCallBindings["crew"];
  readonly callId: string | undefined;
}

function guardTool(tool: AnyFunctionTool, hooks: ToolHooks, options: GuardAgentOptions<unknown>): void {
  // A tool shared by agents of this stack is guarded once; another stack's is refused (claimGuard).
  if (guardOf(tool) === hooks) return;
  claimGuard(tool, hooks, ALREADY, `tool ${tool.name}`);
  const rawInvoke: Invoke = tool.invoke;
  const rawNeedsApproval: NeedsApproval = tool.needsApproval;
  const info = options.tools?.[tool.name] ?? {};
  // The tool's facts for selectors (name, destructive, tags); each call gets its own copy with an execute.
  const facts = defineTool({
    name: tool.name,
    description: tool.description,
    destructive: info.destructive === true,
    tags: [...(info.tags ?? [])],
    execute: () => undefined,
  });
  const callOf = (
    runContext: RunContext<unknown>,
    input: Record<string, unknown>,
    callId: string | undefined,
    details: OpenAIAgentsToolDetails | undefined,
  ): OpenAIAgentsCall<unknown> => ({
    toolName: tool.name,
    callId,
    input,
    runContext,
    context: runContext.context,
    toolCall: details?.toolCall,
    details,
  });

  const invoke: Invoke = async (runContext, text, details) => {
    const callId = details?.toolCall?.callId;
    let call = callOf(runContext, {}, callId, details);
    const twTool = defineTool({
      name: facts.name,
      description: facts.description,
      destructive: facts.destructive,
      tags: [...(facts.tags ?? [])],
      execute: async (args: Record<string, unknown>, { signal }) => {
        // Rewritten arguments go back to the tool as the JSON string it parses itself.
        const raw = await rawInvoke.call(tool, runContext, JSON.stringify(args), withSignal(details, signal));
        if (raw === HIDDEN_ERROR) {
          // The advice is the developer's (the code, onListenerError); the model reads a plain failure.
          if (!advised.has(tool)) {
            advised.add(tool);
            adviseDeveloper(
              hooks,
              "openai-agents.errorFunction",
              new ToolwareError("TOOLWARE_OPENAI_ERROR_HIDDEN", `tool ${tool.name}: ${HIDDEN_ADVICE}`),
            );
          }
          throw new ToolwareError("TOOLWARE_OPENAI_ERROR_HIDDEN", "the tool failed");
        }
        return raw;
      },
    });
    // What the model sent (its text until it parses), for the listeners of a call that never starts.
    let sent: unknown = text;
    let started = false;
    try {
      sent = parseArguments(text);
      const input = readArguments(tool.name, sent);
      call = callOf(runContext, input, callId, details);
      const bound = bindCall(options.bind, call, ADAPTER);
      started = true;
      const chain = () =>
        hooks.invoke(twTool, input, {
          ...bound,
          signal: details?.signal,
          ...(callId === undefined ? {} : { callId }),
          framework: { name: FRAMEWORK_NAME, context: call },
        });
      const outcome = await (callId === undefined
        ? chain()
        : asCall({ toolName: tool.name, callId, runContext, arguments: text }, chain));
      notifyOutcome(hooks, "openai-agents.onOutcome", options.onOutcome, outcome, call);
      return outcomeToToolOutput(outcome, twTool);
    } catch (error) {
      // Only a "throw"-policy hook makes invoke reject: the app asked for the run to fail.
      if (error instanceof HookFailedError) throw error;
      const refused = started ? undefined : { input: sent };
      const outcome = refusedOutcome(hooks, ADAPTER, tool.name, callId ?? "", error, refused);
      notifyOutcome(hooks, "openai-agents.onOutcome", options.onOutcome, outcome, call);
      return outcome.result;
    }
  };

  const needsApproval: NeedsApproval = async (runContext, input, callId) => {
    if (await rawNeedsApproval.call(tool, runContext, input, callId)) return true;
    const args = (input !== null && typeof input === "object" ? input : {}) as Record<string, unknown>;
    try {
      const bound = bindCall(options.bind, callOf(runContext, args, callId, undefined), ADAPTER);
      const probe = { toolName: tool.name, tool: facts, toolInput: args, ...bound, callId };
      return wouldAsk(hooks, probe as Probe, bound);
    } catch {
      // bind failed: the call will fail closed when it runs; asking first is the safe side.
      return asksThroughRunState(hooks);
    }
  };

  tool.invoke = invoke;
  // Only a stack that asks through the run state can change the answer. The SDK takes any replaced
  // needsApproval for a dynamic policy and then forces an interruption on arguments it cannot parse,
  // so without the approvals provider the tool's own policy stays as it was.
  if (asksThroughRunState(hooks)) tool.needsApproval = needsApproval;
}

/**
 * Guards one agent. The agent passed to guardAgent (`given`) and guarded already is refused,
 * whatever the stack; one reached otherwise (a handoff, a cycle, a target shared by two agents, an
 * agent of the `agents` option) and guarded by this stack is shared as it is.
 */
function guardOne(agent: AnyAgent, hooks: ToolHooks, options: GuardAgentOptions<unknown>, given: boolean): void {
  if (!given && guardOf(agent) === hooks) return;
  claimGuard(agent, hooks, ALREADY, `agent ${agent.name}`);
  const guardAll = (tools: readonly SdkTool<never>[]): void => {
    for (const t of tools) if (t.type === "function") guardTool(t as unknown as AnyFunctionTool, hooks, options);
  };
  guardAll(agent.tools);
  const guardHandoffs = (): void => {
    for (const h of agent.handoffs) {
      guardOne((h instanceof Agent ? h : h.agent) as unknown as AnyAgent, hooks, options, false);
    }
  };
  // Tools added later and MCP tools (listed per run) come through here: they are guarded when the run sees them.
  // So are handoff targets added later: the run lists this agent's tools on each of its turns, before any handoff.
  const getAllTools = agent.getAllTools;
  Object.defineProperty(agent, "getAllTools", {
    configurable: true,
    writable: true,
    value: async function guardedGetAllTools(this: AnyAgent, ...args: Parameters<typeof getAllTools>) {
      const tools = await getAllTools.apply(this, args);
      guardAll(tools);
      guardHandoffs();
      return tools;
    },
  });
  guardHandoffs();
}

/**
 * Runs every function tool call of this agent, of its handoff targets (recursively) and of the
 * agents named in `options.agents` (agents used as tools) through the hooks' chain. The tools are
 * changed in place, keeping every FunctionTool field (schema, strict, needsApproval, guardrails,
 * isEnabled, timeouts); tools added later and MCP tools are guarded when a run lists them.
 * Hooks see the parsed arguments; rewritten ones go back to the tool as JSON. A blocked call or an
 * error reaches the model as the call's output, with the reason.
 *
 * @example
 * ```ts
 * const agent = guardAgent(new Agent({ name: "ops", tools: [deleteFile] }), hooks, {
 *   bind: ({ context }) => ({ agent: context.user === "intern" ? intern : undefined }),
 * });
 * ```
 */
export function guardAgent<TContext, TOutput extends AgentOutputType>(
  agent: Agent<TContext, TOutput>,
  hooks: ToolHooks,
  options: GuardAgentOptions<TContext> = {},
): Agent<TContext, TOutput> {
  if (!(agent instanceof Agent)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "guardAgent() needs an Agent from @openai/agents");
  }
  if (!(hooks instanceof ToolHooks)) {
    throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", "guardAgent() needs a ToolHooks as its second argument");
  }
  const checked = checkOptions(options) as GuardAgentOptions<unknown>;
  guardOne(agent as unknown as AnyAgent, hooks, checked, true);
  // Agents used as tools may also be reachable from `agent` (a handoff too): guarded once, like a handoff target.
  for (const inner of checked.agents ?? []) guardOne(inner as unknown as AnyAgent, hooks, checked, false);
  return agent;
}
