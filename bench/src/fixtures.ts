/** The input every subject passes to the tool. */
export interface QueryInput {
  query: string;
}

/** The tool's name in every framework. */
export const TOOL_NAME = "bench_tool";

/** One input object shared by all calls, so no subject pays for building it. */
export const input: QueryInput = { query: "q" };

/** What every subject must hand back (as its result string). */
export const EXPECTED = "q";

/**
 * The trivial async tool all subjects run: the floor is `await trivialTool(input)`.
 *
 * @example
 * ```ts
 * await trivialTool({ query: "q" }); // "q"
 * ```
 */
export async function trivialTool(args: QueryInput): Promise<string> {
  return args.query;
}

/** Hook counts measured for every hook system. */
export const HOOK_COUNTS = [1, 10, 50] as const;
