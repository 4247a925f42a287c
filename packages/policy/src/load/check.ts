import { closestKey } from "@toolware/core";
import { checkScalar, expected } from "./check-scalar.js";
import type { ArraySpec, ObjectSpec, RecordSpec, Spec } from "./spec-types.js";
import { describeTree, type Pos, type Tree } from "./tree.js";

/** One problem, at a place in the file and a key path as written. */
export interface CheckIssue {
  readonly pos: Pos;
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly hint?: string;
}

type Path = readonly (string | number)[];
const INVALID: unique symbol = Symbol("invalid");
type Checked = unknown | typeof INVALID;

const showKey = (key: string): string =>
  /^[\w$-]{1,64}$/.test(key) ? `\`${key}\`` : JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);

/** Walks a tree along the descriptor: the checked (frozen) value, every issue, and where each document key was. */
export class Checker {
  readonly issues: CheckIssue[] = [];
  /** Document key path (as JSON) → position of its value. */
  readonly positions = new Map<string, Pos>();

  private issue(pos: Pos, path: Path, message: string, hint?: string): typeof INVALID {
    this.issues.push(hint === undefined ? { pos, path, message } : { pos, path, message, hint });
    return INVALID;
  }

  /** `path` is the key path as written (for messages); `docPath` the document's (for `locate`). */
  check(tree: Tree, spec: Spec, path: Path, docPath: Path): Checked {
    this.positions.set(JSON.stringify(docPath), tree.pos);
    if (tree.t === "other") {
      if (tree.reported === true) return INVALID;
      const problem = tree.problem === undefined ? "" : ` (${tree.problem})`;
      return this.issue(tree.pos, path, `must be ${expected(spec)}, got ${tree.what}${problem}`);
    }
    switch (spec.kind) {
      case "object":
        return tree.t === "map" ? this.object(tree, spec, path, docPath) : this.mismatch(tree, spec, path);
      case "record":
        return tree.t === "map" ? this.record(tree, spec, path, docPath) : this.mismatch(tree, spec, path);
      case "array":
        return tree.t === "seq" ? this.array(tree, spec, path, docPath) : this.mismatch(tree, spec, path);
      case "choice": {
        const option = spec.options.find((o) => fits(tree, o));
        return option === undefined ? this.mismatch(tree, spec, path) : this.check(tree, option, path, docPath);
      }
      default: {
        if (tree.t !== "scalar") return this.mismatch(tree, spec, path);
        const result = checkScalar(tree.value, spec);
        if ("value" in result) return result.value;
        return this.issue(tree.pos, path, result.message, result.hint);
      }
    }
  }

  private mismatch(tree: Tree, spec: Spec, path: Path): typeof INVALID {
    return this.issue(tree.pos, path, `must be ${expected(spec)}, got ${describeTree(tree)}`);
  }

  private object(tree: Tree & { t: "map" }, spec: ObjectSpec, path: Path, docPath: Path): Checked {
    const out: Record<string, unknown> = {};
    const seen = new Map<string, Pos>();
    const keyPos = new Map<string, Pos>();
    const known = Object.keys(spec.fields);
    const failed = new Set<string>();
    let valid = true;
    for (const entry of tree.entries) {
      const key = entry.key;
      if (key === undefined) {
        this.issue(entry.keyPos, path, `keys are strings, got ${entry.keyWhat} (put it in quotes)`);
        valid = false;
        continue;
      }
      const first = seen.get(key);
      if (first !== undefined) {
        this.issue(
          entry.keyPos,
          path,
          `${showKey(key)} is given twice (first at line ${first.line}, column ${first.column})`,
        );
        valid = false;
        continue;
      }
      seen.set(key, entry.keyPos);
      if (!Object.hasOwn(spec.fields, key)) {
        const alias = spec.aliases !== undefined && Object.hasOwn(spec.aliases, key) ? spec.aliases[key] : undefined;
        const hint = alias ?? closestKey(key, known);
        this.issue(entry.keyPos, path, `unknown key ${showKey(key)} (known keys: ${known.join(", ")})`, hint);
        valid = false;
        continue;
      }
      const field = spec.fields[key] as (typeof spec.fields)[string];
      const docKey = field.as ?? key;
      keyPos.set(key, entry.value.pos);
      const value = this.check(entry.value, field.spec, [...path, key], [...docPath, docKey]);
      if (value === INVALID) {
        valid = false;
        failed.add(docKey);
      } else out[docKey] = value;
    }
    for (const [key, field] of Object.entries(spec.fields)) {
      if (field.required === true && !seen.has(key)) {
        this.issue(tree.pos, path, `missing ${showKey(key)}: ${lowerFirst(field.description)}`);
        valid = false;
        failed.add(field.as ?? key);
      }
    }
    for (const found of spec.refine?.(out, failed) ?? []) {
      const at = found.key === undefined ? tree.pos : (keyPos.get(String(found.key)) ?? tree.pos);
      this.issue(at, found.key === undefined ? path : [...path, found.key], found.message);
      valid = false;
    }
    return valid ? Object.freeze(out) : INVALID;
  }

  private record(tree: Tree & { t: "map" }, spec: RecordSpec, path: Path, docPath: Path): Checked {
    // Keys are the file's (tool names): a null prototype, so `__proto__` stays a key like any other.
    const out: Record<string, unknown> = Object.create(null);
    let valid = true;
    for (const entry of tree.entries) {
      const key = entry.key;
      if (key === undefined || key === "") {
        this.issue(
          entry.keyPos,
          path,
          `keys are ${spec.keyNoun}s, got ${key === "" ? "an empty string" : entry.keyWhat}`,
        );
        valid = false;
        continue;
      }
      if (Object.hasOwn(out, key)) {
        this.issue(entry.keyPos, path, `${showKey(key)} is given twice`);
        valid = false;
        continue;
      }
      const value = this.check(entry.value, spec.values, [...path, key], [...docPath, key]);
      if (value === INVALID) valid = false;
      else Object.defineProperty(out, key, { value, enumerable: true });
    }
    return valid ? Object.freeze(out) : INVALID;
  }

  private array(tree: Tree & { t: "seq" }, spec: ArraySpec, path: Path, docPath: Path): Checked {
    if (spec.minItems !== undefined && tree.items.length < spec.minItems) {
      return this.issue(tree.pos, path, "must not be empty (leave the key out instead)");
    }
    if (spec.maxItems !== undefined && tree.items.length > spec.maxItems) {
      return this.issue(tree.pos, path, `holds at most ${spec.maxItems} entries, got ${tree.items.length}`);
    }
    const out: unknown[] = [];
    let valid = true;
    tree.items.forEach((item, i) => {
      const value = this.check(item, spec.items, [...path, i], [...docPath, i]);
      if (value === INVALID) valid = false;
      // A refused entry keeps its place, so the cross-entry checks name the right index.
      out.push(value === INVALID ? undefined : value);
    });
    for (const found of spec.refine?.(out) ?? []) {
      const item = typeof found.key === "number" ? tree.items[found.key] : undefined;
      this.issue(item?.pos ?? tree.pos, found.key === undefined ? path : [...path, found.key], found.message);
      valid = false;
    }
    return valid ? Object.freeze(out) : INVALID;
  }
}

const lowerFirst = (text: string): string => text.charAt(0).toLowerCase() + text.slice(1);

// Whether a value written is of the kind a choice's option takes (a choice is told apart by kind alone).
function fits(tree: Tree, spec: Spec): boolean {
  if (tree.t === "map") return spec.kind === "object" || spec.kind === "record";
  if (tree.t === "seq") return spec.kind === "array";
  if (tree.t !== "scalar") return false;
  const type = typeof tree.value;
  if (type === "string") return spec.kind === "string" || spec.kind === "duration";
  if (type === "number") return spec.kind === "number" || spec.kind === "duration";
  if (type === "boolean") return spec.kind === "boolean" || spec.kind === "const";
  return false;
}

export { INVALID };
