/**
 * A parsed policy as a small tree with positions, made from YAML (with its line and column) or from an object given
 * in code (no positions). The checker reads only this, so a file and an object are checked by the same code.
 */

/** 1-based; 0 and 0 for an object given in code. */
export interface Pos {
  readonly line: number;
  readonly column: number;
}

export type Scalar = string | number | boolean | null;

export interface Entry {
  /** The key, or `undefined` when it is no string (its description is in `keyWhat`). */
  readonly key: string | undefined;
  readonly keyWhat: string;
  readonly keyPos: Pos;
  readonly value: Tree;
}

export type Tree =
  | { readonly t: "map"; readonly pos: Pos; readonly entries: readonly Entry[] }
  | { readonly t: "seq"; readonly pos: Pos; readonly items: readonly Tree[] }
  | { readonly t: "scalar"; readonly pos: Pos; readonly value: Scalar }
  /** Something no policy holds (a function, a Date, a cycle): `what` says what, `problem` why it is refused. */
  | {
      readonly t: "other";
      readonly pos: Pos;
      readonly what: string;
      readonly problem?: string;
      /** The builder already reported it: the checker stays silent. */
      readonly reported?: boolean;
    };

/** A problem found while building the tree (not the checker's): where, and what. */
export interface TreeIssue {
  readonly pos: Pos;
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** The deepest nesting a policy may have; the descriptor's own is under 10. */
export const MAX_DEPTH = 64;
/** Values aliases may add beyond those written (a billion-laughs file is refused by this). */
export const MAX_ALIAS_EXPANSION = 100_000;

export const NO_POS: Pos = { line: 0, column: 0 };

/** What a value is, for messages: `a string`, `a list`, `null`. */
export function describeTree(tree: Tree): string {
  switch (tree.t) {
    case "map":
      return "a map";
    case "seq":
      return "a list";
    case "other":
      return tree.what;
    default: {
      const v = tree.value;
      if (v === null) return "null (nothing)";
      if (typeof v === "string") return `the string ${JSON.stringify(v.length > 64 ? `${v.slice(0, 64)}…` : v)}`;
      return `${typeof v === "number" ? "the number" : "the boolean"} ${String(v)}`;
    }
  }
}
