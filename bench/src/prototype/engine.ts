import compose from "koa-compose";

// A scratch prototype of the hot-path techniques, outside the core: the same kinds of hook (before, after,
// middleware), per-hook policies (block, continue, throw), `false` blocks, after-hooks that return a string
// replace the result, one frozen trace entry per hook and action, unique call ids, an 8-field outcome. It
// has no layers, filters, predicates, timeouts, input tracking, events or signals: it measures what the
// techniques cost, not what the core does. Middlewares are composed either with koa-compose (the core's
// choice) or with a dispatcher of its own, so the benchmark shows what koa-compose costs.

export type Policy = "block" | "continue" | "throw";
export type Kind = "before" | "after" | "middleware";
type Next = () => Promise<void>;
export type ProtoFn = (ctx: Call, next: Next) => unknown;

export interface ProtoHook {
  readonly kind: Kind;
  readonly fn: ProtoFn;
  readonly policy: Policy;
  readonly name: string;
}

interface Entry {
  readonly hook: string;
  readonly action: string;
}

/** One call's state: what hooks read and write. */
export class Call {
  status: "ok" | "blocked" | "error" = "ok";
  result: string | undefined = undefined;
  raw: unknown = undefined;
  reason: string | undefined = undefined;
  error: unknown = undefined;
  settled = false;
  decisions = 0;
  readonly trace: Entry[] = [];
  constructor(
    readonly tool: ProtoTool,
    readonly input: object,
    readonly callId: string,
  ) {}
  block(reason?: string): void {
    this.status = "blocked";
    this.reason = reason;
    this.settled = true;
    this.decisions++;
    this.result = `blocked: ${reason ?? ""}`;
  }
}

export interface ProtoTool {
  readonly name: string;
  readonly execute: (input: never, options: { callId: string }) => unknown;
}

export interface ProtoOutcome {
  readonly status: Call["status"];
  readonly result: string;
  readonly raw: unknown;
  readonly reason: string | undefined;
  readonly error: unknown;
  readonly trace: readonly Entry[];
  readonly callId: string;
  readonly toolName: string;
}

/** The trace of every call without hooks. */
export const NO_TRACE: readonly Entry[] = Object.freeze([]);
// Call ids as the core makes them: a prefix and a count whose two low base-36 digits come from a table.
const LOW = Array.from({ length: 1296 }, (_, i) => i.toString(36).padStart(2, "0"));
let low = 0;
let high = 0;
let head = "p-";
/** A fresh call id. */
export function nextId(): string {
  if (low === 1296) {
    low = 0;
    head = `p-${(++high).toString(36)}`;
  }
  return head + (LOW[low++] as string);
}

type Action = "proceeded" | "blocked" | "modified-result" | "failed";

/** A hook as a chain runs it: with its frozen trace entries, made on first use and shared by every call. */
interface RHook extends ProtoHook {
  readonly entries: Partial<Record<Action, Entry>>;
}

function record(call: Call, h: RHook, action: Action): void {
  let entry = h.entries[action];
  if (entry === undefined) {
    entry = Object.freeze({ hook: h.name, action });
    h.entries[action] = entry;
  }
  call.trace.push(entry);
}

class Fatal extends Error {}

function failed(call: Call, h: RHook, error: unknown): void {
  if (error instanceof Fatal) throw error;
  record(call, h, "failed");
  if (h.policy === "throw") throw new Fatal(`hook ${h.name} failed`, { cause: error });
  if (h.policy === "block" && !call.settled) call.block(`hook ${h.name} failed`);
}

function outcome(call: Call): ProtoOutcome {
  return {
    status: call.status,
    result: call.result ?? "",
    raw: call.raw,
    reason: call.reason,
    error: call.error,
    trace: call.trace,
    callId: call.callId,
    toolName: call.tool.name,
  };
}

// The plain hooks between two middlewares (or around the tool), in chain order, run flat: befores on the
// way in; on the way out the afters of what was entered, innermost first. Sync hooks allocate nothing.
function runBefores(call: Call, hooks: readonly RHook[], upTo: number): number {
  for (let i = 0; i < upTo; i++) {
    const h = hooks[i] as RHook;
    if (h.kind !== "before") continue;
    try {
      if ((h.fn as (c: Call) => unknown)(call) === false && !call.settled) call.block();
      record(call, h, call.settled ? "blocked" : "proceeded");
    } catch (e) {
      failed(call, h, e);
    }
    if (call.settled) return i;
  }
  return upTo;
}

function runAfters(call: Call, hooks: readonly RHook[], entered: number): void {
  for (let i = entered - 1; i >= 0; i--) {
    const h = hooks[i] as RHook;
    if (h.kind !== "after") continue;
    try {
      const r = (h.fn as (c: Call) => unknown)(call);
      if (typeof r === "string") call.result = r;
      record(call, h, typeof r === "string" ? "modified-result" : "proceeded");
    } catch (e) {
      failed(call, h, e);
    }
  }
}

function toolDone(call: Call, value: unknown): void {
  call.raw = value;
  call.result = typeof value === "string" ? value : JSON.stringify(value);
}

function toolFailed(call: Call, error: unknown): void {
  call.status = "error";
  call.error = error;
  call.result = "tool failed";
}

/** The plain group innermost, then the tool, then its afters: one reaction on the tool's promise. */
function runInnermost(call: Call, group: readonly RHook[]): Promise<void> | undefined {
  const entered = runBefores(call, group, group.length);
  if (call.settled) {
    runAfters(call, group, entered);
    return undefined;
  }
  return (call.tool.execute(call.input as never, { callId: call.callId }) as Promise<unknown>).then(
    (v) => {
      toolDone(call, v);
      runAfters(call, group, group.length);
    },
    (e: unknown) => {
      toolFailed(call, e);
      runAfters(call, group, group.length);
    },
  );
}

const NEXT_TWICE = "next() called twice";

// One middleware and the plain group outside it, as one step: no try/await boundary, one `.then(ok, err)`
// on what the middleware returned applies its policy, records its entry and runs the group's afters.
function middlewareStep(group: readonly RHook[], h: RHook) {
  return (call: Call, next: Next): Promise<void> | undefined => {
    const entered = runBefores(call, group, group.length);
    if (call.settled) {
      runAfters(call, group, entered);
      return undefined;
    }
    let called = false;
    const decisions = call.decisions;
    const guarded: Next = () => {
      if (called) return Promise.reject(new Error(NEXT_TWICE));
      called = true;
      return call.settled ? Promise.resolve() : next();
    };
    const finish = (): void => {
      if (!called && !call.settled) record(call, h, "failed");
      else record(call, h, call.decisions !== decisions && !called ? "blocked" : "proceeded");
      runAfters(call, group, group.length);
    };
    let r: unknown;
    try {
      r = h.fn(call, guarded);
    } catch (e) {
      failed(call, h, e);
      if (!called && !call.settled) return guarded().then(() => runAfters(call, group, group.length));
      runAfters(call, group, group.length);
      return undefined;
    }
    if (!(r instanceof Promise)) {
      finish();
      return undefined;
    }
    return r.then(finish, (e: unknown) => {
      failed(call, h, e);
      runAfters(call, group, group.length);
    });
  };
}

/** Middlewares in order, each with the plain hooks just outside it; the innermost plain hooks. */
function split(hooks: readonly ProtoHook[]): { steps: [RHook[], RHook][]; innermost: RHook[] } {
  const steps: [RHook[], RHook][] = [];
  let group: RHook[] = [];
  for (const hook of hooks) {
    const h: RHook = { ...hook, entries: {} };
    if (h.kind === "middleware") {
      steps.push([group, h]);
      group = [];
    } else group.push(h);
  }
  return { steps, innermost: group };
}

type Step = (call: Call, next: Next) => Promise<void> | undefined;

// The prototype's own dispatcher: each step gets a `next` that runs the one inside it.
function ownCompose(steps: readonly Step[], last: (call: Call) => Promise<void> | undefined) {
  return (call: Call): Promise<void> => {
    const at = (i: number): Promise<void> => {
      const step = steps[i];
      const r = step === undefined ? last(call) : step(call, () => at(i + 1));
      return r ?? Promise.resolve();
    };
    return at(0);
  };
}

/** A compiled chain: `invoke` runs it. */
export interface ProtoChain {
  readonly run: (call: Call) => ProtoOutcome | Promise<ProtoOutcome>;
  readonly empty: boolean;
}

/** Compiles hooks (outermost first) with koa-compose or with the prototype's own dispatcher. */
export function protoChain(hooks: readonly ProtoHook[], composer: "koa" | "own" = "koa"): ProtoChain {
  const { steps, innermost } = split(hooks);
  if (steps.length === 0) {
    return {
      empty: hooks.length === 0,
      run: (call) => {
        const r = runInnermost(call, innermost);
        return r === undefined ? outcome(call) : r.then(() => outcome(call));
      },
    };
  }
  const layers = steps.map(([group, h]) => middlewareStep(group, h));
  const last = (call: Call) => runInnermost(call, innermost);
  const koa = composer === "koa" ? compose<Call>(layers as never) : undefined;
  const own = ownCompose(layers, last);
  return {
    empty: false,
    run: (call) =>
      (koa === undefined ? own(call) : koa(call, last as never)).then(
        () => outcome(call),
        (e: unknown) => {
          if (e instanceof Fatal) throw e;
          toolFailed(call, e);
          return outcome(call);
        },
      ),
  };
}
