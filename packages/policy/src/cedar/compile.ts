import { ToolwareError } from "@toolware/core";
import type { CedarEngine, CompileCedarOptions } from "./types.js";

/**
 * Parses Cedar policies once, validates them against the schema (when given), and returns the engine that decides
 * tool calls with them. A parse or validation error throws with `FILE:LINE:COLUMN`.
 *
 * @example
 * ```ts
 * const engine = await compileCedar({ file: "toolware.cedar", policies: 'forbid(principal, action, resource == Tool::"rm");' });
 * engine.decide({ tool: "rm", args: {} }).effect; // "deny"
 * ```
 */
export async function compileCedar(options: CompileCedarOptions): Promise<CedarEngine> {
  throw new ToolwareError("TOOLWARE_POLICY_INVALID", `${options.file}: Cedar engine not implemented yet`);
}
