import { buildChain, type Chain } from "./chain.js";
import type { Agent, Crew } from "./entities.js";
import type { Registration } from "./registration.js";
import type { Runtime } from "./runtime.js";
import { selectHooks } from "./select-hooks.js";
import type { HookErrorPolicy } from "./types.js";

const NONE = {};

/**
 * The compiled chains of one `ToolHooks`, per (tool name, agent, crew). A chain is rebuilt when
 * any of its three layers changed since it was built: each layer bumps its version on every
 * change, so nothing has to tell the cache. Agents and crews are held weakly. @internal
 */
export class ChainCache {
  readonly #plain = new Map<string, Chain>();
  readonly #scoped = new WeakMap<object, WeakMap<object, Map<string, Chain>>>();
  readonly #runtime: Runtime;
  readonly #policy: HookErrorPolicy;
  // The chain of the last call, in front of the maps: an app mostly calls one tool with one agent and crew
  // many times over. It holds that agent and crew until a call with other ones.
  #last: Chain | undefined;
  #lastName: string | undefined;
  #lastAgent: Agent | undefined;
  #lastCrew: Crew | undefined;

  constructor(runtime: Runtime, policy: HookErrorPolicy) {
    this.#runtime = runtime;
    this.#policy = policy;
  }

  /** The chain of a call of `toolName`; `global` is the app's own layer and `version` its version. */
  get(
    global: readonly Registration[],
    version: number,
    toolName: string,
    agent: Agent | undefined,
    crew: Crew | undefined,
  ): Chain {
    const cv = crew === undefined ? -1 : crew._version;
    const av = agent === undefined ? -1 : agent._version;
    const last = this.#last;
    if (
      last !== undefined &&
      toolName === this.#lastName &&
      agent === this.#lastAgent &&
      crew === this.#lastCrew &&
      last.versions[0] === version &&
      last.versions[1] === cv &&
      last.versions[2] === av
    ) {
      return last;
    }
    const chain = this.#lookup(global, version, cv, av, toolName, agent, crew);
    this.#last = chain;
    this.#lastName = toolName;
    this.#lastAgent = agent;
    this.#lastCrew = crew;
    return chain;
  }

  #lookup(
    global: readonly Registration[],
    version: number,
    cv: number,
    av: number,
    toolName: string,
    agent: Agent | undefined,
    crew: Crew | undefined,
  ): Chain {
    let cache: Map<string, Chain>;
    if (agent === undefined && crew === undefined) {
      cache = this.#plain;
    } else {
      let byAgent = this.#scoped.get(crew ?? NONE);
      if (byAgent === undefined) {
        byAgent = new WeakMap();
        this.#scoped.set(crew ?? NONE, byAgent);
      }
      let found = byAgent.get(agent ?? NONE);
      if (found === undefined) {
        found = new Map();
        byAgent.set(agent ?? NONE, found);
      }
      cache = found;
    }
    const cached = cache.get(toolName);
    if (
      cached !== undefined &&
      cached.versions[0] === version &&
      cached.versions[1] === cv &&
      cached.versions[2] === av
    ) {
      return cached;
    }
    const layers = [global];
    if (crew !== undefined) layers.push(crew._regs);
    if (agent !== undefined) layers.push(agent._regs);
    const chain = buildChain(this.#runtime, selectHooks(layers, toolName, agent), this.#policy, [version, cv, av]);
    cache.set(toolName, chain);
    return chain;
  }
}
