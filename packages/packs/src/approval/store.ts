/**
 * Where an approval pack keeps the decisions a human asked it to remember ("always", "never").
 * Keys are the tool name, or the tool name and the digest of the input (`digestArguments`), as `remember`
 * says. Every method may answer with a plain value or a promise. A store that throws or rejects
 * in `get` makes the gate block the call (it fails closed); one that fails in `set` loses the
 * memory, not the decision (the call goes on as the human said).
 *
 * @example
 * ```ts
 * const decisions = memoryApprovalStore();
 * hooks.use(approval({ tools: ["send_email"], remember: "tool", store: decisions }));
 * ```
 */
export interface ApprovalStore {
  /** The remembered decision (`true`: approve), or `undefined`. */
  get(key: string): boolean | undefined | Promise<boolean | undefined>;
  set(key: string, approved: boolean): void | Promise<void>;
  /** Forgets every decision. */
  clear(): void | Promise<void>;
  /** How many decisions are remembered. */
  count(): number | Promise<number>;
}

/** The default store: a `Map`, per pack instance unless shared. */
export interface MemoryApprovalStore extends ApprovalStore {
  get(key: string): boolean | undefined;
  set(key: string, approved: boolean): void;
  clear(): void;
  count(): number;
}

/**
 * The in-memory approval store: decisions last as long as the process (or until `reset()`).
 *
 * @example
 * ```ts
 * const shared = memoryApprovalStore(); // two gates that share what the human said
 * ```
 */
export function memoryApprovalStore(): MemoryApprovalStore {
  const decisions = new Map<string, boolean>();
  return {
    get: (key) => decisions.get(key),
    set(key, approved) {
      decisions.set(key, approved);
    },
    clear() {
      decisions.clear();
    },
    count: () => decisions.size,
  };
}
