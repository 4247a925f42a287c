import { describe, expect, it } from "vitest";
import { Agent, Crew, defineTool, ToolHooks } from "./index.js";

declare module "./types.js" {
  interface ToolCallState {
    seenId?: number;
  }
}

const tick = (n: number) => new Promise<void>((r) => setTimeout(r, n % 3));

describe("concurrency", () => {
  it("1,000 concurrent calls mutating their inputs see no cross-talk", async () => {
    const hooks = new ToolHooks();
    const agents = [new Agent({ role: "a" }), new Agent({ role: "b" })];
    const crew = new Crew({ agents });
    hooks.before((ctx) => {
      ctx.state.seenId = ctx.toolInput.id as number;
      ctx.toolInput.steps = ["global"];
    });
    crew.use(async (ctx, next) => {
      await tick(ctx.toolInput.id as number);
      (ctx.toolInput.steps as string[]).push("crew");
      await next();
      await tick((ctx.toolInput.id as number) + 1);
    });
    for (const agent of agents) {
      agent.before(async (ctx) => {
        await tick((ctx.toolInput.id as number) + 2);
        (ctx.toolInput.steps as string[]).push(agent.role);
        ctx.toolInput.id = (ctx.toolInput.id as number) * 10;
      });
    }
    hooks.after((ctx) => `${ctx.toolResult}|state=${ctx.state.seenId}`);
    const tool = defineTool({
      name: "work",
      execute: async (input: { id: number; steps: string[] }) => {
        await tick(input.id);
        return `${input.id}:${input.steps.join(">")}`;
      },
    });
    const calls = Array.from({ length: 1000 }, (_, i) =>
      hooks.invoke(tool, { id: i, steps: [] }, { crew, agent: agents[i % 2] as Agent }),
    );
    const outcomes = await Promise.all(calls);
    outcomes.forEach((o, i) => {
      expect(o.status).toBe("ok");
      expect(o.result).toBe(`${i * 10}:global>crew>${i % 2 === 0 ? "a" : "b"}|state=${i}`);
    });
    expect(new Set(outcomes.map((o) => o.callId)).size).toBe(1000);
  });

  it("keeps blocks and substitutes to their own calls under concurrency", async () => {
    const hooks = new ToolHooks();
    hooks.before(async (ctx) => {
      await tick(ctx.toolInput.n as number);
      if ((ctx.toolInput.n as number) % 3 === 0) ctx.block(`n=${ctx.toolInput.n}`);
    });
    hooks.use(async (ctx, next) => {
      if ((ctx.toolInput.n as number) % 3 === 1) ctx.respond(`cached ${ctx.toolInput.n}`);
      await next();
    });
    const tool = defineTool({ name: "t", execute: async (input: { n: number }) => `ran ${input.n}` });
    const outcomes = await Promise.all(Array.from({ length: 300 }, (_, n) => hooks.invoke(tool, { n })));
    outcomes.forEach((o, n) => {
      if (n % 3 === 0) expect(o).toMatchObject({ status: "blocked", reason: `n=${n}` });
      else if (n % 3 === 1) expect(o).toMatchObject({ status: "ok", result: `cached ${n}` });
      else expect(o).toMatchObject({ status: "ok", result: `ran ${n}` });
    });
  });
});
