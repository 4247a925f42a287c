import type { ExplainCall } from "@toolware/policy";
import { defineCommand, EXIT, usageError } from "../kit.js";
import { annotationsOption, argsOption, tagsOption } from "./call.js";
import { formatExplanation } from "./format.js";
import { modeOption, openPolicy } from "./load.js";

/** `toolware policy explain <file> --tool NAME …`: how the policy decides one call, and why. */
export const explain = defineCommand({
  name: "explain",
  summary: "explain how a policy decides one call: the matching rules, the decision and why",
  description: [
    "Decides one call described on the command line, without running anything: every rule in file order and",
    "whether its match holds (or which key failed, and each CEL condition's result), what Cedar answers, the",
    "decision and the deciding rule with its reason, what shadow rules would have done, the packs that attach.",
    `Example: toolware policy explain toolware.policy.yaml --tool write_file --agent junior --args '{"path":"../x"}'`,
  ].join("\n"),
  args: ["file"],
  options: {
    tool: { type: "string", value: "NAME", description: "the tool called (required)" },
    agent: { type: "string", value: "ROLE", description: "the calling agent's role" },
    crew: { type: "string", value: "NAME", description: "the agent's crew" },
    caller: { type: "string", value: "ID", description: "who is calling (what the caller option resolves)" },
    tags: { type: "string", value: "A,B", description: "the tool's tags, separated by commas" },
    annotations: {
      type: "string",
      value: "K=V,…",
      description:
        "the tool's MCP annotations: destructiveHint, readOnlyHint, idempotentHint, openWorldHint =true|false",
    },
    args: { type: "string", value: "JSON", description: "the call's arguments, a JSON object (default {})" },
    mode: { type: "string", value: "MODE", description: "enforce or shadow: decide every rule in this mode" },
    json: { type: "boolean", description: "print the explanation as JSON" },
  },
  failure: "the policy file has problems (listed on stderr) or cannot be read",
  async run({ positionals, options }, io) {
    if (options.tool === undefined || options.tool === "") throw usageError("--tool NAME is required");
    const call: ExplainCall = {
      tool: options.tool,
      args: argsOption(options.args) ?? {},
      ...(options.agent === undefined ? {} : { agent: options.agent }),
      ...(options.crew === undefined ? {} : { crew: options.crew }),
      ...(options.caller === undefined ? {} : { caller: options.caller }),
      ...(options.tags === undefined ? {} : { tags: tagsOption(options.tags) }),
      ...(options.annotations === undefined ? {} : { annotations: annotationsOption(options.annotations) }),
    };
    const opened = await openPolicy(io, positionals[0] as string, modeOption(options.mode));
    if (typeof opened === "number") return opened;
    const e = opened.pack.explain(call);
    io.out(options.json ? `${JSON.stringify({ call, ...e }, null, 2)}\n` : formatExplanation(opened.shown, call, e));
    return EXIT.ok;
  },
});
