// snippet: type-safety-1.ts
import { defineTool, type ToolCallOutcome, ToolHooks } from "@toolware/core";

interface Order {
  id: string;
  total: number;
  status: "open" | "shipped";
}

// defineTool infers the input type from execute's parameter and the output type from its return type.
const getOrder = defineTool({
  name: "get_order",
  execute: async ({ id }: { id: string }): Promise<Order> => ({ id, total: 42, status: "open" }),
});

const hooks = new ToolHooks();

// A tool object as the `tools` filter types the context with that tool's input and output.
hooks.before(
  (ctx) => {
    ctx.toolInput.id = ctx.toolInput.id.trim().toUpperCase(); // ctx.toolInput: { id: string }
  },
  { tools: getOrder, name: "normaliseId" },
);
hooks.after(
  (ctx) => {
    const order = ctx.rawToolResult; // Order | undefined
    return order && `order ${order.id}: ${order.status}, ${order.total.toFixed(2)} EUR`;
  },
  { tools: getOrder, name: "describe" },
);
hooks.use(
  async (ctx, next) => {
    await next();
    // respond() takes the tool's output type here: a fallback must be an Order.
    if (ctx.status === "error") ctx.respond({ id: ctx.toolInput.id, total: 0, status: "open" });
  },
  { tools: getOrder, name: "fallback" },
);

// invoke() checks the input against the tool, and the outcome's raw value has the tool's output type.
const outcome: ToolCallOutcome<Order> = await hooks.invoke(getOrder, { id: " a-17 " });
console.log(outcome.result, outcome.raw?.status); // order A-17: open, 42.00 EUR open
