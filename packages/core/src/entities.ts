import { ToolwareTypeError } from "./errors.js";
import { checkKeys, hasNameCharacter, type KeyHints, showValue } from "./keys.js";
import { HookRegistry } from "./registry.js";
import type { Tool } from "./types.js";

// What CrewAI users bring along: its agent, task and crew fields that toolware has no use for.
const CREWAI_FIELD = "toolware's Agent, Task and Crew only carry what hooks read; keep the rest on your own objects";
const AGENT_KEYS = ["role", "goal", "backstory", "tools"];
const AGENT_HINTS: KeyHints = {
  name: "an Agent is named by its `role` (agents filters match it)",
  llm: CREWAI_FIELD,
  verbose: CREWAI_FIELD,
  allow_delegation: CREWAI_FIELD,
};
const TASK_KEYS = ["description", "expectedOutput", "agent"];
const CREW_KEYS = ["name", "agents", "tasks"];
const CREW_HINTS: KeyHints = { process: CREWAI_FIELD, verbose: CREWAI_FIELD };

function optionalString(what: string, key: string, value: unknown): string | undefined {
  if (value !== undefined && typeof value !== "string") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${what} \`${key}\` must be a string, got ${showValue(value)}`,
    );
  }
  return value;
}

function listOf<T>(
  what: string,
  key: string,
  value: unknown,
  ok: (item: unknown) => item is T,
  [plural, singular]: readonly [string, string],
): readonly T[] {
  if (value === undefined) return Object.freeze([]);
  if (!Array.isArray(value)) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${what} \`${key}\` must be an array of ${plural}, got ${showValue(value)}`,
    );
  }
  const items = [...(value as unknown[])];
  const bad = items.findIndex((item) => !ok(item));
  if (bad >= 0) {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${what} \`${key}[${bad}]\` must be ${singular}, got ${showValue(items[bad])}`,
    );
  }
  return Object.freeze(items as T[]);
}

function isToolLike(value: unknown): value is Tool<never, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { name?: unknown }).name === "string" &&
    typeof (value as { execute?: unknown }).execute === "function"
  );
}

function checkOptions(what: string, options: unknown, keys: readonly string[], hints?: KeyHints): void {
  if (options === null || typeof options !== "object") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_OPTION",
      `${what} takes an options object, got ${showValue(options)}`,
    );
  }
  checkKeys(options, keys, `${what} option`, hints);
}

/** What {@link Agent} takes. */
export interface AgentOptions {
  role: string;
  goal?: string;
  backstory?: string;
  tools?: readonly Tool<never, unknown>[];
}

/**
 * An agent: a role plus its own layer of hooks, which run only for the
 * agent's calls (innermost at equal priority).
 *
 * @example
 * ```ts
 * const junior = new Agent({ role: "junior_agent" });
 * junior.before((ctx) => ctx.toolName !== "delete_file");
 * await hooks.invoke(deleteFile, { path: "a.txt" }, { agent: junior }); // blocked
 * ```
 */
export class Agent extends HookRegistry {
  // A brand that a Proxy of an agent, or an object made with Object.create(agent), does not carry:
  // instanceof accepts both, and their traps and borrowed layers would reach a call's chain.
  readonly #agent = true;
  readonly role: string;
  readonly goal: string | undefined;
  readonly backstory: string | undefined;
  readonly tools: readonly Tool<never, unknown>[];

  constructor(options: AgentOptions) {
    super("agent");
    checkOptions("new Agent()", options, AGENT_KEYS, AGENT_HINTS);
    const { role, goal, backstory, tools } = options;
    // agents filters match the role once normalised: a role of spaces or dashes could never be named in one.
    if (typeof role !== "string" || !hasNameCharacter(role)) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `new Agent() needs a non-empty \`role\` (not only blanks and separators), got ${showValue(role)}`,
      );
    }
    this.role = role;
    this.goal = optionalString("new Agent()", "goal", goal);
    this.backstory = optionalString("new Agent()", "backstory", backstory);
    this.tools = listOf("new Agent()", "tools", tools, isToolLike, ["tools", "a tool ({ name, execute })"]);
  }

  /** Whether `value` is an agent made by this class, never a Proxy of one; runs no trap. @internal */
  static _is(value: unknown): value is Agent {
    return typeof value === "object" && value !== null && #agent in value;
  }
}

/** What {@link Task} takes. */
export interface TaskOptions {
  description: string;
  expectedOutput?: string;
  agent?: Agent;
}

/**
 * A unit of work; hooks read `ctx.task.description` to decide.
 *
 * @example
 * ```ts
 * const task = new Task({ description: "Summarise the sensitive report" });
 * hooks.before((ctx) => !(ctx.task?.description.includes("sensitive") && ctx.toolName === "web_search"));
 * ```
 */
export class Task {
  readonly description: string;
  readonly expectedOutput: string | undefined;
  readonly agent: Agent | undefined;

  constructor(options: TaskOptions) {
    checkOptions("new Task()", options, TASK_KEYS);
    const { description, expectedOutput, agent } = options;
    if (typeof description !== "string") {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `new Task() needs a \`description\` string, got ${showValue(description)}`,
      );
    }
    if (agent !== undefined && !(agent instanceof Agent)) {
      throw new ToolwareTypeError(
        "TOOLWARE_INVALID_OPTION",
        `new Task() \`agent\` must be an Agent (new Agent({ role })), got ${showValue(agent)}`,
      );
    }
    this.description = description;
    this.expectedOutput = optionalString("new Task()", "expectedOutput", expectedOutput);
    this.agent = agent;
  }
}

/** What {@link Crew} takes. */
export interface CrewOptions {
  name?: string;
  agents?: readonly Agent[];
  tasks?: readonly Task[];
}

/**
 * A crew of agents and tasks with its own hook layer: its hooks run only for
 * calls bound to this crew. Methods decorated with `@beforeToolCall` /
 * `@afterToolCall` (or the `…Crew` variants) register on the instance's layer,
 * and `dispose()` removes every hook of the crew.
 *
 * @example
 * ```ts
 * class ResearchCrew extends Crew {
 *   @beforeToolCallCrew
 *   validate(ctx: ToolCallHookContext) {
 *     if (ctx.toolName === "web_search" && !ctx.toolInput.query) return false;
 *   }
 * }
 * const crew = new ResearchCrew({ agents: [researcher] });
 * ```
 */
export class Crew extends HookRegistry {
  readonly name: string | undefined;
  readonly agents: readonly Agent[];
  readonly tasks: readonly Task[];
  #disposed = false;

  constructor(options: CrewOptions = {}) {
    super("crew");
    checkOptions("new Crew()", options, CREW_KEYS, CREW_HINTS);
    this.name = optionalString("new Crew()", "name", options.name);
    this.agents = listOf("new Crew()", "agents", options.agents, (a): a is Agent => a instanceof Agent, [
      "Agents",
      "an Agent",
    ]);
    this.tasks = listOf("new Crew()", "tasks", options.tasks, (t): t is Task => t instanceof Task, ["Tasks", "a Task"]);
  }

  /** True after `dispose()`. */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** Removes every hook of this crew (decorated methods included); returns how many went. */
  dispose(): number {
    this.#disposed = true;
    return this.clear();
  }

  [Symbol.dispose](): void {
    this.dispose();
  }

  /** Whether `value` is a crew made by this class, never a Proxy of one; runs no trap. @internal */
  static _is(value: unknown): value is Crew {
    return typeof value === "object" && value !== null && #disposed in value;
  }
}
