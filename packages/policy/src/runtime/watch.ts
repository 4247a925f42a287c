import { type FSWatcher, watch } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { definePack, type HookSpec, type Pack, type ToolCallHookContext } from "@toolware/core";
import { readPolicyFile } from "../load/index.js";
import { type CompiledPolicy, compilePolicy } from "./compile.js";
import { type Runnable, runHooks, runnable } from "./dispatch.js";
import { DEFAULT_PRIORITY, enforce } from "./hooks.js";
import { type PolicyApi, policyApi } from "./load.js";
import { checkOptions, type LoadPolicyOptions } from "./options.js";
import { PolicyRuntime } from "./runtime.js";

/** Options of {@link watchPolicy}: those of `loadPolicy`, and how long to wait for an edit to settle. */
export interface WatchPolicyOptions extends LoadPolicyOptions {
  /** Milliseconds between the last change seen and the reload. Default 50. */
  readonly debounceMs?: number;
}

/** What a watched policy adds to a policy pack. */
export interface WatchApi extends PolicyApi {
  /** Reloads now; resolves true when the new policy is in force, false when it was refused (the old one stays). */
  reload(): Promise<boolean>;
  /** Stops watching the file; the policy in force stays. Returns true the first time. */
  close(): boolean;
}

/** The pack {@link watchPolicy} returns. */
export type WatchedPolicyPack = Pack<WatchApi>;

/** Added, removed and changed rule names between two versions. @internal */
export function diffRules(before: CompiledPolicy, after: CompiledPolicy) {
  const added: string[] = [];
  const changed: string[] = [];
  for (const [name, text] of after.fingerprints) {
    const old = before.fingerprints.get(name);
    if (old === undefined) added.push(name);
    else if (old !== text) changed.push(name);
  }
  const removed = [...before.fingerprints.keys()].filter((name) => !after.fingerprints.has(name));
  return { added, removed, changed };
}

/**
 * Loads a policy file like `loadPolicy` and reloads it whenever it changes, atomically: a call started under one
 * version finishes under it (its decision and its packs), a broken edit keeps the last good policy and emits a
 * `reload-error` event, and each reload emits a `reload` event naming the rules added, removed and changed.
 * Packs of a rule whose packs did not change keep their state (counters, caches) across reloads.
 *
 * @example
 * ```ts
 * const policy = await watchPolicy("toolware.policy.yaml", { onEvent: (e) => e.type === "reload" && console.log(e) });
 * hooks.use(policy);
 * // later
 * policy.close();
 * ```
 */
export async function watchPolicy(file: string, options?: WatchPolicyOptions): Promise<WatchedPolicyPack> {
  const { debounceMs = 50, ...rest } = options ?? {};
  if (!(typeof debounceMs === "number" && debounceMs >= 0 && debounceMs <= 60_000)) {
    throw new TypeError("watchPolicy: `debounceMs` must be a number of milliseconds from 0 to 60000");
  }
  const checked = checkOptions(rest);
  const path = resolve(file);
  let rt: PolicyRuntime | undefined;
  const onApproval: PolicyRuntime["onApproval"] = (rule, d) => rt?.onApproval(rule, d);
  const first = await compilePolicy(await readPolicyFile(path), { version: 1, options: checked, onApproval });
  const runtime = new PolicyRuntime(first, checked);
  rt = runtime;

  let queue: Promise<boolean> = Promise.resolve(true);
  let tried = 1;
  const reloadOnce = async (): Promise<boolean> => {
    const version = ++tried;
    const report = (error: unknown) => console.error("toolware policy: an onEvent listener failed", error);
    try {
      const before = runtime.current;
      const next = await compilePolicy(await readPolicyFile(path), {
        version,
        options: checked,
        onApproval,
        previous: before,
      });
      runtime.current = next;
      runtime.emit({ type: "reload", version, ...diffRules(before, next) }, report);
      return true;
    } catch (error) {
      runtime.emit({ type: "reload-error", version, error }, report);
      return false;
    }
  };
  const reload = (): Promise<boolean> => {
    queue = queue.then(reloadOnce);
    return queue;
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  let watcher: FSWatcher | undefined = watch(dirname(path), { persistent: false }, (_event, name) => {
    if (name !== null && name !== basename(path)) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void reload();
    }, debounceMs);
  });
  const close = (): boolean => {
    if (watcher === undefined) return false;
    watcher.close();
    watcher = undefined;
    if (timer !== undefined) clearTimeout(timer);
    return true;
  };

  const priority = checked.priority ?? DEFAULT_PRIORITY;
  // Two lists per version: the packs' hooks that sit outside the decision (audit records denied calls too) and
  // those inside it, each run by one middleware at the matching side of the decision hook.
  const lists = new WeakMap<CompiledPolicy, { outer: Runnable[]; inner: Runnable[] }>();
  const packsOf = (compiled: CompiledPolicy) => {
    let found = lists.get(compiled);
    if (found === undefined) {
      const all = compiled.attachments.flatMap((a) =>
        a.pack.hooks.map((spec) => ({
          spec,
          also: (ctx: ToolCallHookContext) => runtime.pinned(ctx).matchedIndex.includes(a.rule),
        })),
      );
      found = {
        outer: runnable(all.filter((h) => (h.spec.options?.priority ?? 0) > priority)),
        inner: runnable(all.filter((h) => (h.spec.options?.priority ?? 0) <= priority)),
      };
      lists.set(compiled, found);
    }
    return found;
  };
  const dispatcher = (side: "outer" | "inner"): HookSpec => ({
    kind: "middleware",
    fn: (ctx, next) => {
      const list = packsOf(runtime.compiledOf(runtime.pinned(ctx)))[side];
      return list.length === 0 ? next() : runHooks(ctx, list, 0, next);
    },
    options: {
      name: side === "outer" ? "packs-outside" : "packs",
      priority: side === "outer" ? priority + 1 : priority - 1,
      onError: "block",
    },
  });
  const hooks: HookSpec[] = [
    dispatcher("outer"),
    {
      kind: "before",
      fn: (ctx) => {
        // One hook decides for every version of the file: its trace entry (and so the audit line and the OTel
        // span) names the rule that decided this call, as a loaded policy's hook per rule does.
        ctx.traceAs(`policy:${runtime.pinned(ctx).rule}`);
        return enforce(runtime, ctx);
      },
      options: { name: "decide", priority, onError: "block" },
    },
    dispatcher("inner"),
  ];
  return definePack({ name: "policy", stateful: true, hooks, ...policyApi(runtime), reload, close });
}
