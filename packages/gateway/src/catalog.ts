import type { Prompt, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { AnnotationsMatch, PolicyApi } from "@toolware/policy";
import type { ExposedTool } from "./contract.js";
import type { Upstream } from "./upstream.js";

/** What an exposed name stands for. @internal */
export interface Route {
  readonly upstream: Upstream;
  readonly name: string;
}

/** How names are exposed: the prefix of each upstream (undefined: its own names) and the separator. @internal */
export interface Naming {
  readonly prefixes: ReadonlyMap<string, string | undefined>;
  readonly separator: string;
}

/** The prefix an upstream's names get: its own, or its name when the gateway fronts several. @internal */
export function prefixOf(prefix: string | false | undefined, name: string, count: number): string | undefined {
  if (prefix === false) return undefined;
  return prefix ?? (count > 1 ? name : undefined);
}

/**
 * Names items of several upstreams in one list. Merged names that collide are exposed under the upstream's name as
 * prefix instead (the first upstream listed keeps the bare name), so nothing is shadowed. @internal
 */
export function exposeAll<T extends { name: string }>(
  lists: readonly (readonly [Upstream, readonly T[]])[],
  naming: Naming,
): { readonly items: T[]; readonly routes: Map<string, Route> } {
  const routes = new Map<string, Route>();
  const items: T[] = [];
  for (const [upstream, list] of lists) {
    const prefix = naming.prefixes.get(upstream.config.name);
    for (const item of list) {
      let exposed = prefix === undefined ? item.name : `${prefix}${naming.separator}${item.name}`;
      if (routes.has(exposed)) exposed = `${upstream.config.name}${naming.separator}${item.name}`;
      if (routes.has(exposed)) continue;
      routes.set(exposed, { upstream, name: item.name });
      items.push({ ...item, name: exposed });
    }
  }
  return { items, routes };
}

const CONTEXT_KEYS = new Set(["agents", "crews", "callers", "when"]);

/**
 * Whether the policy denies a tool whatever the call: denied by a rule or the default, with no rule left out only
 * because of who calls or what the arguments are (those could still allow it). Cedar's answers depend on the call,
 * so a Cedar decision hides nothing. A policy that cannot explain hides nothing. @internal
 */
export function deniedOutright(policy: Pick<PolicyApi, "explain">, tool: Tool): boolean {
  try {
    const annotations = (tool.annotations ?? {}) as AnnotationsMatch;
    const explained = policy.explain({ tool: tool.name, annotations });
    if (explained.effect !== "deny" || explained.source === "cedar") return false;
    return explained.rules.every((r) => (r.matched ? r.condition === undefined : !CONTEXT_KEYS.has(r.failed ?? "")));
  } catch {
    return false;
  }
}

/** Lists every page of an upstream's tools or prompts. @internal */
export async function allPages<T>(
  list: (cursor: string | undefined) => Promise<{ nextCursor?: string | undefined } & Record<string, unknown>>,
  key: "tools" | "prompts" | "resources" | "resourceTemplates",
  signal?: AbortSignal,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    signal?.throwIfAborted();
    const result = await list(cursor);
    const items = result[key];
    if (Array.isArray(items)) out.push(...(items as T[]));
    cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
    if (cursor === undefined) break;
  }
  return out;
}

/** The exposed-tool view of a listing, for `gateway.tools()`. @internal */
export function describeTools(
  items: readonly Tool[],
  routes: ReadonlyMap<string, Route>,
  hidden: ReadonlySet<string>,
): ExposedTool[] {
  return items.map((t) => {
    const route = routes.get(t.name) as Route;
    return { name: t.name, upstream: route.upstream.config.name, upstreamName: route.name, hidden: hidden.has(t.name) };
  });
}

export type { Prompt, Tool };
