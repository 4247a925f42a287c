import { tool as sdkTool } from "@openai/agents";

/**
 * The SDK's `tool()`, same signature and types, with one default changed: without an
 * `errorFunction` the tool's error is not turned into the SDK's generic "An error occurred while
 * running the tool" (which hides the reason from the model and from toolware). It propagates
 * into the guarded call, where after-hooks (redaction, …) see it and the model gets
 * `Tool execution failed. Tool: …. Error: …`. An `errorFunction` the caller passes (a function
 * or `null`) is kept. Meant for the tools of a `guardAgent`-ed agent: unguarded, such a tool
 * behaves as the SDK's own with `errorFunction: null`.
 *
 * @example
 * ```ts
 * const readFile = tool({ name: "read_file", description: "…", parameters, execute });
 * ```
 */
export const tool: typeof sdkTool = (options) =>
  // The SDK reads a missing and an undefined errorFunction alike as "use the default".
  sdkTool(options.errorFunction === undefined ? ({ ...options, errorFunction: null } as typeof options) : options);
