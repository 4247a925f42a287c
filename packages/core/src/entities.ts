import { HookRegistry } from "./registry.js";
import type { Tool } from "./types.js";

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
  readonly role: string;
  readonly goal: string | undefined;
  readonly backstory: string | undefined;
  readonly tools: readonly Tool<never, unknown>[];

  constructor(options: AgentOptions) {
    super("agent");
    if (options === null || typeof options !== "object" || typeof options.role !== "string" || options.role === "") {
      throw new TypeError("toolware: new Agent() needs a non-empty `role`");
    }
    this.role = options.role;
    this.goal = options.goal;
    this.backstory = options.backstory;
    this.tools = Object.freeze([...(options.tools ?? [])]);
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
    if (options === null || typeof options !== "object" || typeof options.description !== "string") {
      throw new TypeError("toolware: new Task() needs a `description` string");
    }
    this.description = options.description;
    this.expectedOutput = options.expectedOutput;
    this.agent = options.agent;
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
    if (options === null || typeof options !== "object")
      throw new TypeError("toolware: new Crew() takes an options object");
    this.name = options.name;
    this.agents = Object.freeze([...(options.agents ?? [])]);
    this.tasks = Object.freeze([...(options.tasks ?? [])]);
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
}
