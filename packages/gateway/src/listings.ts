import { ErrorCode, McpError, type Resource, type ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { allPages, exposeAll, type Prompt, type Route, type Tool } from "./catalog.js";
import { hiddenByPolicy } from "./hidden.js";
import type { SessionEnv } from "./session.js";
import type { Upstream } from "./upstream.js";

type ToolRoute = Route & { readonly tool: Tool };

/**
 * What one session's upstreams offer, under the names the client sees: tools and prompts renamed by prefix, and
 * which upstream serves a resource URI. Lists are read when the client lists, and again when it names something
 * not seen yet. @internal
 */
export class Listings {
  #tools = new Map<string, ToolRoute>();
  #prompts = new Map<string, Route>();
  #uris = new Map<string, Upstream>();
  #toolsRead = false;
  #hidden: ((tool: Tool) => boolean) | undefined;
  onToolsChanged: (() => void) | undefined;

  constructor(
    private readonly env: SessionEnv,
    private readonly upstreams: () => Promise<Upstream[]>,
  ) {}

  async tools(signal: AbortSignal): Promise<{ items: Tool[] }> {
    const ups = (await this.upstreams()).filter((u) => u.capabilities.tools !== undefined);
    const lists = await Promise.all(
      ups.map(
        async (u) =>
          [u, await allPages<Tool>((cursor) => u.client.listTools({ cursor }, { signal }), "tools", signal)] as const,
      ),
    );
    const { items, routes } = exposeAll(lists, this.env.naming);
    const byName = new Map<string, ToolRoute>();
    const originals = new Map(
      lists.flatMap(([u, list]) => list.map((t) => [`${u.config.name}\0${t.name}`, t] as const)),
    );
    for (const [exposed, route] of routes) {
      byName.set(exposed, { ...route, tool: originals.get(`${route.upstream.config.name}\0${route.name}`) as Tool });
    }
    this.#tools = byName;
    this.#toolsRead = true;
    return { items };
  }

  /** Whether the policy now denies this exposed tool outright (and the gateway hides such tools). */
  isHidden(name: string): boolean {
    const { policy, hideDenied = true } = this.env.options;
    const route = this.#tools.get(name);
    if (policy === undefined || !hideDenied || route === undefined) return false;
    this.#hidden ??= hiddenByPolicy(policy);
    return this.#hidden(route.tool);
  }

  async toolRoute(name: string, signal: AbortSignal): Promise<Route | undefined> {
    // Names are matched exactly: a look-alike of a denied name (case, Unicode) is just another unknown tool.
    if (!this.#tools.has(name) || !this.#toolsRead) await this.tools(signal);
    return this.#tools.get(name);
  }

  async prompts(signal: AbortSignal): Promise<{ items: Prompt[] }> {
    const ups = (await this.upstreams()).filter((u) => u.capabilities.prompts !== undefined);
    const lists = await Promise.all(
      ups.map(
        async (u) =>
          [
            u,
            await allPages<Prompt>((cursor) => u.client.listPrompts({ cursor }, { signal }), "prompts", signal),
          ] as const,
      ),
    );
    const { items, routes } = exposeAll(lists, this.env.naming);
    this.#prompts = routes;
    return { items };
  }

  async promptRoute(name: string, signal: AbortSignal): Promise<Route | undefined> {
    if (!this.#prompts.has(name)) await this.prompts(signal);
    return this.#prompts.get(name);
  }

  async resources(signal: AbortSignal): Promise<Resource[]> {
    const out: Resource[] = [];
    for (const u of await this.withResources()) {
      const list = await allPages<Resource>(
        (cursor) => u.client.listResources({ cursor }, { signal }),
        "resources",
        signal,
      );
      for (const r of list) if (!this.#uris.has(r.uri)) this.#uris.set(r.uri, u);
      out.push(...list);
    }
    return out;
  }

  async templates(signal: AbortSignal): Promise<ResourceTemplate[]> {
    const out: ResourceTemplate[] = [];
    for (const u of await this.withResources()) {
      out.push(
        ...(await allPages<ResourceTemplate>(
          (cursor) => u.client.listResourceTemplates({ cursor }, { signal }),
          "resourceTemplates",
          signal,
        )),
      );
    }
    return out;
  }

  /**
   * Sends a request about a URI to the upstream that listed it; a URI none listed (one made from a template) goes to
   * each upstream with resources in turn until one answers.
   */
  async byUri<T>(uri: string, signal: AbortSignal, send: (u: Upstream) => Promise<T>): Promise<T> {
    const known = this.#uris.get(uri);
    if (known !== undefined) return send(known);
    const candidates = await this.withResources();
    let last: unknown = new McpError(ErrorCode.InvalidParams, `Resource ${uri} not found`);
    for (const u of candidates) {
      signal.throwIfAborted();
      try {
        return await send(u);
      } catch (error) {
        last = error;
      }
    }
    throw last;
  }

  invalidate(): void {
    this.#toolsRead = false;
    this.onToolsChanged?.();
  }

  private async withResources(): Promise<Upstream[]> {
    return (await this.upstreams()).filter((u) => u.capabilities.resources !== undefined);
  }
}
