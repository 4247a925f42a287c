import { Agent, type ToolCallOutcome, ToolHooks, toolwareCode } from "@toolware/core";
import { approval } from "@toolware/packs/approval";
import { guardrails } from "@toolware/packs/guardrails";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type GuardToolsOptions, guardTools } from "./index.js";
import { generateResults, type Turn, toolResultsIn } from "./test-fixtures.js";

const call = (id: string, toolName: string, input: Record<string, unknown>) => ({ id, toolName, input });
const junior = new Agent({ role: "junior" });

function fileTools(ran: string[]) {
  const fileTool = (verb: string, result: string) =>
    tool({
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        ran.push(`${verb} ${path}`);
        return result;
      },
    });
  return { read_file: fileTool("read", "contents"), delete_file: fileTool("delete", "deleted") };
}

/** Runs one generateText loop in which the model reads then deletes a file; returns what the model read back. */
async function readThenDelete(hooks: ToolHooks, options: GuardToolsOptions<"read_file" | "delete_file">) {
  const ran: string[] = [];
  const outcomes: ToolCallOutcome[] = [];
  const turns: Turn[] = [[call("r1", "read_file", { path: "a.txt" }), call("d1", "delete_file", { path: "a.txt" })]];
  const model = new MockLanguageModelV3({ doGenerate: generateResults([...turns, "done"]) });
  const tools = guardTools(hooks, fileTools(ran), { ...options, onOutcome: (o) => outcomes.push(o) });
  await generateText({ model, tools, prompt: "tidy up", stopWhen: stepCountIs(3) });
  return { ran, outcomes, seen: toolResultsIn(model.doGenerateCalls[1]?.prompt) };
}

function codeOf(thunk: () => unknown): { code: string | undefined; message: string } {
  try {
    thunk();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return { code: toolwareCode(error), message: String(error) };
  }
  throw new Error("expected a throw");
}

describe("guardTools `tools`: toolware's metadata for SDK tools", () => {
  it("a byRole deny on { tag: 'destructive' } blocks the tagged tool in the SDK loop, and only it", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ byRole: { junior: { deny: [{ tag: "destructive" }] } } }));
    const { ran, outcomes, seen } = await readThenDelete(hooks, {
      bind: () => ({ agent: junior }),
      tools: { delete_file: { tags: ["destructive", "fs"] } },
    });
    expect(ran).toEqual(["read a.txt"]);
    expect(seen.r1).toEqual({ type: "text", value: "contents" });
    expect(seen.d1).toMatchObject({ type: "execution-denied" });
    expect((seen.d1 as { reason: string }).reason).toContain("tag destructive");
    expect(outcomes.map((o) => [o.toolName, o.status]).sort()).toEqual([
      ["delete_file", "blocked"],
      ["read_file", "ok"],
    ]);
  });

  it("without the metadata the same guardrail cannot see the tool (what the option fixes)", async () => {
    const hooks = new ToolHooks();
    hooks.use(guardrails({ byRole: { junior: { deny: [{ tag: "destructive" }] } } }));
    const { ran } = await readThenDelete(hooks, { bind: () => ({ agent: junior }) });
    expect(ran).toEqual(["read a.txt", "delete a.txt"]);
  });

  it("a deny on { destructive: true } and approval's destructive selector see the flag", async () => {
    const denying = new ToolHooks();
    denying.use(guardrails({ deny: [{ destructive: true }] }));
    const denied = await readThenDelete(denying, { tools: { delete_file: { destructive: true } } });
    expect(denied.ran).toEqual(["read a.txt"]);
    expect(denied.seen.d1).toMatchObject({ type: "execution-denied" });

    const prompts: string[] = [];
    const asking = new ToolHooks({
      humanInput: async (request) => {
        prompts.push(request.prompt);
        return "no";
      },
    });
    asking.use(approval({ tools: { destructive: true } }));
    const asked = await readThenDelete(asking, { tools: { delete_file: { destructive: true } } });
    expect(asked.ran).toEqual(["read a.txt"]);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain("delete_file");
  });

  it("hooks read the tags and flag on ctx.tool, and filters on them pick the tool", async () => {
    const seen: [string, readonly string[], boolean][] = [];
    const hooks = new ToolHooks();
    hooks.before((ctx) => {
      seen.push([ctx.tool.name, ctx.tool.tags, ctx.tool.destructive]);
    });
    hooks.before((ctx) => ctx.block("no fs writes"), { tools: (ctx) => ctx.tool.tags.includes("fs-write") });
    const info = { tags: ["fs-write"], destructive: true };
    const { ran } = await readThenDelete(hooks, { tools: { delete_file: info } });
    // The option was copied: changing it afterwards changes nothing.
    info.tags.push("late");
    expect(ran).toEqual(["read a.txt"]);
    expect(seen.sort()).toEqual([
      ["delete_file", ["fs-write"], true],
      ["read_file", [], false],
    ]);
  });

  it("refuses a name that is not one of the set's tools, listing the set's tools", () => {
    const hooks = new ToolHooks();
    for (const name of ["delete_files", "DELETE_FILE", "__proto__", "constructor", ""]) {
      const tools = JSON.parse(`{${JSON.stringify(name)}: { "destructive": true }}`);
      const { code, message } = codeOf(() => guardTools(hooks, fileTools([]), { tools }));
      expect(code).toBe("TOOLWARE_UNKNOWN_OPTION");
      expect(message).toContain("read_file, delete_file");
    }
    expect(codeOf(() => guardTools(hooks, {}, { tools: { x: {} } as never })).message).toContain("none");
  });

  it.each([
    [{ tools: null }, "TOOLWARE_INVALID_OPTION"],
    [{ tools: [] }, "TOOLWARE_INVALID_OPTION"],
    [{ tools: "delete_file" }, "TOOLWARE_INVALID_OPTION"],
    [{ tools: { delete_file: true } }, "TOOLWARE_INVALID_OPTION"],
    [{ tools: { delete_file: null } }, "TOOLWARE_INVALID_OPTION"],
    [{ tools: { delete_file: ["destructive"] } }, "TOOLWARE_INVALID_OPTION"],
    [{ tools: { delete_file: { destructiv: true } } }, "TOOLWARE_UNKNOWN_OPTION"],
    [{ tools: { delete_file: { tag: "destructive" } } }, "TOOLWARE_UNKNOWN_OPTION"],
    [{ tools: { delete_file: { destructive: "yes" } } }, "TOOLWARE_INVALID_OPTION"],
    [{ tools: { delete_file: { destructive: 1 } } }, "TOOLWARE_INVALID_OPTION"],
    [{ tools: { delete_file: { tags: "destructive" } } }, "TOOLWARE_INVALID_OPTION"],
    [{ tools: { delete_file: { tags: [1] } } }, "TOOLWARE_INVALID_OPTION"],
    [{ tools: { delete_file: { tags: [""] } } }, "TOOLWARE_INVALID_OPTION"],
  ])("refuses a bad `tools` option with a code (%o)", (options, code) => {
    expect(codeOf(() => guardTools(new ToolHooks(), fileTools([]), options as never)).code).toBe(code);
  });

  it("refuses any `destructive` that is not a boolean (a typo never switches the flag off)", () => {
    fc.assert(
      fc.property(
        fc.anything().filter((v) => v !== undefined && typeof v !== "boolean"),
        (destructive) => {
          const options = { tools: { delete_file: { destructive } } } as never;
          expect(codeOf(() => guardTools(new ToolHooks(), fileTools([]), options)).code).toBe(
            "TOOLWARE_INVALID_OPTION",
          );
        },
      ),
    );
  });
});
