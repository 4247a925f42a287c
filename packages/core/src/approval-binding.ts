import { messageOf, ToolwareTypeError } from "./errors.js";
import { Sha256 } from "./sha256.js";

/**
 * What one approval answers: a call of one tool, by its call id, with exactly these arguments.
 * A "yes" that names another tool, another id or other arguments answers another call.
 */
export interface ApprovalBinding {
  readonly toolName: string;
  readonly callId: string;
  /** {@link digestArguments} of the arguments the person approved (after their edits, if any). */
  readonly digest: string;
}

const VERSION = "toolware-args-v1\n";
const MAX_DEPTH = 64;
// Values visited (shared sub-objects count each time they are reached: a DAG of 64 levels of two
// references to one child would otherwise be 2^64 visits) and characters hashed.
const MAX_NODES = 1_000_000;
// Arguments parsed from JSON are trees; an object reached again came from code, and each meeting re-expands it in
// the canonical text: past this many meetings the input is refused at once instead of walked a million times.
const MAX_REVISITS = 10_000;
const MAX_CHARS = 32 * 1024 * 1024;
const FLUSH = 64 * 1024;

function unbindable(why: string, cause?: unknown): ToolwareTypeError {
  return new ToolwareTypeError(
    "TOOLWARE_UNBINDABLE_INPUT",
    `the arguments cannot be bound to an approval: ${why}`,
    cause === undefined ? undefined : { cause },
  );
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value;
  if (Array.isArray(value)) return "an array";
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
  const name = proto?.constructor?.name;
  return typeof name === "string" && name !== "" ? `a ${name}` : "an exotic object";
}

class Canonical {
  readonly #hash = new Sha256();
  readonly #stack = new Set<object>();
  readonly #seen = new WeakSet<object>();
  #revisits = 0;
  #buffer = "";
  #nodes = 0;
  #chars = 0;

  digest(value: unknown): string {
    this.#write(VERSION);
    this.#value(value, 0);
    this.#hash.update(this.#buffer);
    return `sha256:${this.#hash.hex()}`;
  }

  #write(text: string): void {
    this.#chars += text.length;
    if (this.#chars > MAX_CHARS) throw unbindable(`they are larger than ${MAX_CHARS} characters`);
    this.#buffer += text;
    if (this.#buffer.length >= FLUSH) {
      // A surrogate pair split between two chunks would encode as two replacement characters.
      const last = this.#buffer.charCodeAt(this.#buffer.length - 1);
      const keep = last >= 0xd800 && last <= 0xdbff ? 1 : 0;
      this.#hash.update(this.#buffer.slice(0, this.#buffer.length - keep));
      this.#buffer = this.#buffer.slice(this.#buffer.length - keep);
    }
  }

  #value(value: unknown, depth: number): void {
    if (++this.#nodes > MAX_NODES) throw unbindable(`they hold more than ${MAX_NODES} values`);
    switch (typeof value) {
      case "string":
        this.#write(JSON.stringify(value));
        return;
      case "boolean":
        this.#write(value ? "true" : "false");
        return;
      case "number":
        // NaN and the infinities have no JSON form: any text for them would equal some other value.
        if (!Number.isFinite(value)) throw unbindable(`they hold the number ${value}`);
        this.#write(JSON.stringify(value));
        return;
      case "object":
        if (value === null) {
          this.#write("null");
          return;
        }
        this.#object(value, depth);
        return;
      default:
        throw unbindable(`they hold ${value === undefined ? "undefined" : `a ${typeof value}`}`);
    }
  }

  #object(value: object, depth: number): void {
    if (depth >= MAX_DEPTH) throw unbindable(`they are nested deeper than ${MAX_DEPTH} levels`);
    if (this.#stack.has(value)) throw unbindable("they refer to themselves (a cycle)");
    if (this.#seen.has(value) && ++this.#revisits > MAX_REVISITS) {
      throw unbindable(`they reach the same object more than ${MAX_REVISITS} times`);
    }
    this.#seen.add(value);
    const isArray = Array.isArray(value);
    const proto = Object.getPrototypeOf(value);
    if (!isArray && proto !== Object.prototype && proto !== null) {
      throw unbindable(`they hold ${kindOf(value)}, not plain data`);
    }
    this.#stack.add(value);
    if (isArray) {
      const length = (value as unknown[]).length;
      if (length > MAX_NODES) throw unbindable(`they hold more than ${MAX_NODES} values`);
      this.#write("[");
      for (let i = 0; i < length; i++) {
        if (i > 0) this.#write(",");
        // A hole, like undefined, has no JSON form that differs from null.
        if (!Object.hasOwn(value, i)) throw unbindable("they hold an array with a hole");
        this.#value(this.#own(value, String(i)), depth + 1);
      }
      this.#write("]");
    } else {
      // Own enumerable string keys, as JSON sees them; "__proto__" is a key like any other here.
      const keys = Object.keys(value).sort();
      this.#write("{");
      let first = true;
      for (const key of keys) {
        const item = this.#own(value, key);
        // JSON drops an undefined field: `{ a: undefined }` and `{}` are the same arguments on the wire.
        if (item === undefined) continue;
        if (!first) this.#write(",");
        first = false;
        this.#write(JSON.stringify(key));
        this.#write(":");
        this.#value(item, depth + 1);
      }
      this.#write("}");
    }
    this.#stack.delete(value);
  }

  // A getter could show the digest one value and hand the tool another: only data properties are read.
  #own(value: object, key: string): unknown {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined) throw unbindable(`the field ${JSON.stringify(key)} vanished while it was read`);
    if (!("value" in descriptor)) throw unbindable(`the field ${JSON.stringify(key)} is a getter or setter`);
    return descriptor.value;
  }
}

/**
 * The digest of a call's arguments: SHA-256 over their canonical JSON (object keys sorted, no
 * whitespace, an undefined field left out as JSON leaves it out), as `"sha256:<64 hex digits>"`.
 * Equal arguments give equal digests whatever their key order; `1` and `"1"`, `null` and `"null"`
 * differ. Fails closed: arguments that JSON cannot carry faithfully (a function, a symbol, a
 * bigint, `NaN`, an `undefined` array item, a `Date` or other class instance, a getter, a cycle),
 * nested deeper than 64 levels, larger than 32 Mi characters, or reaching one object more than 10,000 times
 * (a shared sub-object: JSON from a model is a tree) throw a `ToolwareTypeError` with the
 * code `TOOLWARE_UNBINDABLE_INPUT`: no approval can be bound to them.
 *
 * @example
 * ```ts
 * digestArguments({ to: "a@example.com", n: 1 }) === digestArguments({ n: 1, to: "a@example.com" }); // true
 * ```
 */
export function digestArguments(input: unknown): string {
  try {
    return new Canonical().digest(input);
  } catch (error) {
    if (error instanceof ToolwareTypeError) throw error;
    // A Proxy trap or a revoked Proxy: what cannot be read cannot be approved.
    throw unbindable(`they cannot be read (${messageOf(error)})`, error);
  }
}

/**
 * The binding of an approval to one call: the tool, the call id and the digest of the arguments the
 * person saw (or typed, when they edited them). Throws `TOOLWARE_UNBINDABLE_INPUT` as
 * {@link digestArguments} does.
 *
 * @example
 * ```ts
 * const binding = bindApproval("send_email", "call_0", { to: "a@example.com" });
 * // { toolName: "send_email", callId: "call_0", digest: "sha256:…" }
 * ```
 */
export function bindApproval(toolName: string, callId: string, input: unknown): ApprovalBinding {
  if (typeof toolName !== "string" || toolName === "" || typeof callId !== "string" || callId === "") {
    throw new ToolwareTypeError(
      "TOOLWARE_INVALID_ARGUMENT",
      "bindApproval(toolName, callId, input) needs a tool name and a call id (non-empty strings)",
    );
  }
  return Object.freeze({ toolName, callId, digest: digestArguments(input) });
}

/**
 * Whether an approval's binding answers this call: same tool, same call id, same digest of the
 * arguments. Never throws: a binding that cannot be read, or arguments that cannot be digested,
 * answer no call.
 *
 * @example
 * ```ts
 * if (!approvalAnswers(saved.binding, ctx.toolName, ctx.callId, ctx.toolInput)) askAgain();
 * ```
 */
export function approvalAnswers(binding: unknown, toolName: string, callId: string, input: unknown): boolean {
  try {
    if (binding === null || typeof binding !== "object") return false;
    const { toolName: tool, callId: id, digest } = binding as Partial<ApprovalBinding>;
    if (tool !== toolName || id !== callId || typeof digest !== "string") return false;
    return digest === digestArguments(input);
  } catch {
    return false;
  }
}

/**
 * Whether two bindings name the same call: tool, call id and digest. Never throws: a value that is
 * not a readable binding names no call.
 *
 * @example
 * ```ts
 * sameBinding(resumed.binding, question.binding); // the answer was given for this question's call
 * ```
 */
export function sameBinding(a: unknown, b: unknown): boolean {
  try {
    if (a === null || typeof a !== "object" || b === null || typeof b !== "object") return false;
    const x = a as Partial<ApprovalBinding>;
    const y = b as Partial<ApprovalBinding>;
    return typeof x.digest === "string" && x.toolName === y.toolName && x.callId === y.callId && x.digest === y.digest;
  } catch {
    return false;
  }
}

/**
 * Approvals that each answer one call once: an approval taken here cannot be taken again (a model
 * that repeats call ids, a replayed history). Remembers at most `max` approvals, oldest forgotten
 * first.
 *
 * @example
 * ```ts
 * const ledger = new ApprovalLedger();
 * ledger.take("approval-1"); // true: first use
 * ledger.take("approval-1"); // false: already used
 * ```
 */
export class ApprovalLedger {
  readonly #taken = new Set<string>();
  readonly #max: number;

  constructor(max = 100_000) {
    if (!Number.isInteger(max) || max < 1) {
      throw new ToolwareTypeError("TOOLWARE_INVALID_ARGUMENT", `ApprovalLedger(max): max must be a positive integer`);
    }
    this.#max = max;
  }

  /** Takes the approval with this id: true the first time, false ever after. */
  take(id: string): boolean {
    if (this.#taken.has(id)) return false;
    if (this.#taken.size >= this.#max) this.#taken.delete(this.#taken.values().next().value as string);
    this.#taken.add(id);
    return true;
  }

  /** Whether the approval with this id was taken already. */
  taken(id: string): boolean {
    return this.#taken.has(id);
  }
}

/** A key naming one binding, for a {@link ApprovalLedger} or a map. */
export function bindingKey(binding: ApprovalBinding): string {
  return JSON.stringify([binding.toolName, binding.callId, binding.digest]);
}
