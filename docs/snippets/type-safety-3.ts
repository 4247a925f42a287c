// snippet: type-safety-3.ts
import { defineTool, ToolHooks } from "@toolware/core";

// ctx.state is one interface for the whole program, filled by module augmentation. Put your fields under
// a key of your own, so that two packs (or a pack and your app) cannot collide.
declare module "@toolware/core" {
  interface ToolCallState {
    billing?: { costCents: number; account: string };
  }
}

const hooks = new ToolHooks();
const translate = defineTool({ name: "translate", execute: ({ text }: { text: string }) => text.toUpperCase() });

hooks.before(function priceCall(ctx) {
  const text = typeof ctx.toolInput.text === "string" ? ctx.toolInput.text : "";
  ctx.state.billing = { costCents: Math.ceil(text.length / 100), account: ctx.crew?.name ?? "default" };
});
hooks.after(function chargeCall(ctx) {
  const billing = ctx.state.billing; // { costCents: number; account: string } | undefined
  if (billing && ctx.status === "ok") console.log(`charge ${billing.account} ${billing.costCents} ct`);
});

await hooks.invoke(translate, { text: "hello" }); // charge default 1 ct
