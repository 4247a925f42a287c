// snippet: type-safety-2.ts
import {
  type AfterToolCallHookType,
  Agent,
  definePack,
  defineTool,
  Task,
  ToolHooks,
  type ToolMiddleware,
} from "@toolware/core";

const hooks = new ToolHooks();
const getOrder = defineTool({ name: "get_order", execute: ({ id }: { id: string }) => ({ id, total: 42 }) });

// Every line marked @ts-expect-error is a compile error (tsc fails if one of them stops being one).
export function compileErrors() {
  hooks.before((ctx) => {
    // @ts-expect-error the input cannot be replaced, only changed in place
    ctx.toolInput = {};
  });

  // @ts-expect-error an after-hook returns a string (or nothing), not a boolean
  const wrongAfter: AfterToolCallHookType = (ctx) => ctx.toolName === "x";

  // @ts-expect-error a before-hook returns a boolean (or nothing), not a string
  hooks.before(() => "blocked");

  // @ts-expect-error a misspelt option (it is `tools`)
  hooks.before(() => undefined, { tool: "web_search" });

  // @ts-expect-error an unknown error policy
  hooks.after(() => undefined, { onError: "ignore" });

  hooks.before(
    (ctx) => {
      // @ts-expect-error this tool's input has no `orderId`
      ctx.toolInput.orderId = "A-17";
    },
    { tools: getOrder },
  );

  hooks.after(
    (ctx) => {
      // @ts-expect-error respond() takes this tool's output type
      ctx.respond("not an order");
    },
    { tools: getOrder },
  );

  // @ts-expect-error the input must match the tool's input type
  void hooks.invoke(getOrder, { id: 17 });

  const pack = definePack({ name: "guards", hooks: [] });
  // @ts-expect-error packs are registered with use(), not before()
  hooks.before(pack);

  // @ts-expect-error a middleware's next() takes no arguments
  const retrying: ToolMiddleware = async (_ctx, next) => next(3);

  const junior = new Agent({ role: "junior_agent" });
  // @ts-expect-error a misspelt binding (it is `agent`): at run time the call is refused, never run without the agent
  void hooks.invoke(getOrder, { id: "A-17" }, { agnet: junior });

  // @ts-expect-error the bindings are an object, not the agent itself
  void hooks.invoke(getOrder, { id: "A-17" }, junior);

  // @ts-expect-error wrap() takes the same bindings
  hooks.wrap(getOrder, { task: "summarise" });

  // @ts-expect-error `destructive` is a boolean, not "yes"
  defineTool({ name: "drop_table", destructive: "yes", execute: () => "dropped" });

  // @ts-expect-error an inputSchema is a Standard Schema (zod, valibot, arktype), not a JSON Schema
  defineTool({ name: "search", inputSchema: { type: "object" }, execute: () => "results" });

  // @ts-expect-error a misspelt option of Agent (it is `role`); the same holds for Task and Crew
  const typo = new Agent({ role: "a", rol: "b" });

  // @ts-expect-error CrewAI's snake_case (it is `expectedOutput`)
  const task = new Task({ description: "d", expected_output: "a summary" });

  return { wrongAfter, retrying, typo, task };
}
