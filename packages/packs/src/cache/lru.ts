// The memory store's recency order. A Map alone keeps it by re-inserting a key on every read, but a
// Map delete and set cost ~150 ns, more than the rest of the read. Here the map holds each key's slot,
// and the order is a doubly linked list of slots in two Int32Arrays (from the least to the most
// recently used): a read relinks one slot, and a miss reuses the slot of the entry it evicts, so the
// list allocates nothing per call and the garbage collector has no links to follow.

const NONE = -1;
const FIRST_CAPACITY = 16;

/** Values by key, in order of use. @internal */
export class Lru<V> {
  readonly #slots = new Map<string, number>();
  #keys: (string | undefined)[] = [];
  #values: (V | undefined)[] = [];
  #older = new Int32Array(FIRST_CAPACITY);
  #newer = new Int32Array(FIRST_CAPACITY);
  // Slots given back by delete(), reused before the arrays grow.
  #free: number[] = [];
  #oldest = NONE;
  #newest = NONE;

  get size(): number {
    return this.#slots.size;
  }

  /** The value of `key`, which becomes the most recently used. */
  use(key: string): V | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    if (slot !== this.#newest) {
      this.#unlink(slot);
      this.#append(slot);
    }
    return this.#values[slot];
  }

  /** Sets `key`, which becomes the most recently used. */
  set(key: string, value: V): void {
    let slot = this.#slots.get(key);
    if (slot !== undefined) {
      if (slot !== this.#newest) {
        this.#unlink(slot);
        this.#append(slot);
      }
    } else {
      slot = this.#free.pop() ?? this.#grow();
      this.#keys[slot] = key;
      this.#slots.set(key, slot);
      this.#append(slot);
    }
    this.#values[slot] = value;
  }

  delete(key: string): boolean {
    const slot = this.#slots.get(key);
    if (slot === undefined) return false;
    this.#release(key, slot);
    return true;
  }

  /** Drops the least recently used entry; false when there is none. */
  dropOldest(): boolean {
    const slot = this.#oldest;
    if (slot === NONE) return false;
    this.#release(this.#keys[slot] as string, slot);
    return true;
  }

  keys(): IterableIterator<string> {
    return this.#slots.keys();
  }

  clear(): void {
    this.#slots.clear();
    this.#keys = [];
    this.#values = [];
    this.#free = [];
    this.#oldest = NONE;
    this.#newest = NONE;
  }

  #release(key: string, slot: number): void {
    this.#slots.delete(key);
    this.#unlink(slot);
    // Let the value (and key) go now, not when the slot is reused.
    this.#keys[slot] = undefined;
    this.#values[slot] = undefined;
    this.#free.push(slot);
  }

  // A new slot at the end of the arrays, doubling the links when they are full.
  #grow(): number {
    const slot = this.#keys.length;
    this.#keys.push(undefined);
    this.#values.push(undefined);
    if (slot >= this.#older.length) {
      const older = new Int32Array(this.#older.length * 2);
      const newer = new Int32Array(this.#newer.length * 2);
      older.set(this.#older);
      newer.set(this.#newer);
      this.#older = older;
      this.#newer = newer;
    }
    return slot;
  }

  #unlink(slot: number): void {
    const older = this.#older[slot] as number;
    const newer = this.#newer[slot] as number;
    if (older === NONE) this.#oldest = newer;
    else this.#newer[older] = newer;
    if (newer === NONE) this.#newest = older;
    else this.#older[newer] = older;
  }

  #append(slot: number): void {
    const newest = this.#newest;
    this.#older[slot] = newest;
    this.#newer[slot] = NONE;
    if (newest === NONE) this.#oldest = slot;
    else this.#newer[newest] = slot;
    this.#newest = slot;
  }
}
