// snippet: adapters-3.ts
import {
  Agent,
  type BindFunction,
  bindCall,
  defineTool,
  notifyOutcome,
  type OutcomeListener,
  type Tool,
  type ToolCallOutcome,
  ToolHooks,
} from "@toolware/core";

// A made-up framework, "toy": it calls `run(args, call)` and reads `{ ok, text }` back.
interface ToyCall {
  readonly id: string;
  readonly user: string;
  readonly signal?: AbortSignal;
}
interface ToyResult {
  readonly ok: boolean;
  readonly text: string;
}
interface ToyTool {
  readonly name: string;
  run(args: Record<string, unknown>, call: ToyCall): Promise<ToyResult>;
}

interface ToyAdapterOptions {
  bind?: BindFunction<ToyCall>;
  onOutcome?: OutcomeListener<ToyCall>;
}

// The one place where toolware's outcome becomes the framework's channel.
function toToy(outcome: ToolCallOutcome): ToyResult {
  if (outcome.status === "ok") return { ok: true, text: outcome.result };
  // blocked: the reason, as a refusal the model reads; error: the failure text (issues included).
  return { ok: false, text: outcome.status === "blocked" ? `Denied: ${outcome.reason ?? "blocked"}` : outcome.result };
}

function guardToy(hooks: ToolHooks, tool: Tool, options: ToyAdapterOptions = {}): ToyTool {
  return {
    name: tool.name,
    async run(args, call) {
      let outcome: ToolCallOutcome;
      try {
        const who = bindCall(options.bind, call, "toy"); // throws when bind() fails: fail closed
        outcome = await hooks.invoke(tool, args, {
          ...who,
          callId: call.id,
          signal: call.signal,
          framework: { name: "toy", context: call },
        });
      } catch (error) {
        // Bad bindings or arguments never run the tool; only a "throw"-policy hook lands here otherwise.
        return { ok: false, text: `Tool call refused: ${error instanceof Error ? error.message : String(error)}` };
      }
      notifyOutcome(hooks, "toy.onOutcome", options.onOutcome, outcome, call);
      return toToy(outcome);
    },
  };
}

// The app: one agent per user, picked per call; a guard that reads the agent.
const agents = new Map([["alice", new Agent({ role: "admin" })]]);
const hooks = new ToolHooks();
hooks.before((ctx) => {
  if (ctx.tool.destructive && ctx.agent?.role !== "admin") ctx.block("only admins may change data");
});

const drop = defineTool({ name: "drop_table", destructive: true, execute: () => "dropped" });
const toyDrop = guardToy(hooks, drop, {
  bind: (call) => ({ agent: agents.get(call.user) }),
  onOutcome: (outcome, call) => console.log(call.id, outcome.status),
});

console.log(await toyDrop.run({}, { id: "c1", user: "alice" })); // c1 ok, then { ok: true, text: "dropped" }
console.log(await toyDrop.run({}, { id: "c2", user: "bob" }));
// c2 blocked, then { ok: false, text: "Denied: only admins may change data" }
