import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseAllDocuments,
} from "yaml";
import { type Entry, MAX_ALIAS_EXPANSION, MAX_DEPTH, type Pos, type Tree, type TreeIssue } from "./tree.js";

/** The deepest `[` / `{` nesting read before the YAML parser runs: its recursion would otherwise exhaust the stack. */
const MAX_FLOW_DEPTH = 64;

// Counts every bracket, quoted or not: over-counting can only refuse a file with 64 unclosed brackets in its strings,
// while a scanner that skipped quotes could be fooled into letting a deep nesting through to the parser.
function flowDepthExceeded(text: string): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_FLOW_DEPTH) return i;
    } else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return -1;
}

class Builder {
  readonly issues: TreeIssue[] = [];
  private expanded = 0;
  private readonly done = new Map<Node, { tree: Tree; size: number }>();
  private readonly open = new Set<Node>();
  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  pos(offset: number | undefined): Pos {
    const p = this.lines.linePos(offset ?? 0);
    return { line: p.line, column: p.col };
  }

  private fail(node: Node | null | undefined, path: readonly (string | number)[], message: string, at?: Pos): Tree {
    const pos = at ?? this.pos(node?.range?.[0]);
    this.issues.push({ pos, path, message });
    return { t: "other", pos, what: "an invalid value", reported: true };
  }

  // Returns the tree and how many values it holds (aliases counted as what they expand to).
  build(node: Node | null, path: readonly (string | number)[], depth: number, at: Pos): { tree: Tree; size: number } {
    if (node === null) return { tree: { t: "scalar", pos: at, value: null }, size: 1 };
    if (isAlias(node)) {
      const target = node.resolve(this.doc);
      if (target === undefined) {
        return { tree: this.fail(node, path, `the alias *${node.source} names no anchor defined before it`), size: 1 };
      }
      if (this.open.has(target)) {
        return { tree: this.fail(node, path, `the alias *${node.source} refers to its own anchor`), size: 1 };
      }
      const built = this.build(target, path, depth, at);
      this.expanded += built.size;
      if (this.expanded > MAX_ALIAS_EXPANSION) {
        throw new AliasBomb(this.pos(node.range?.[0]), path);
      }
      return built;
    }
    const memo = this.done.get(node);
    if (memo !== undefined) return memo;
    if (depth >= MAX_DEPTH) {
      return { tree: this.fail(node, path, `nested more than ${MAX_DEPTH} levels deep`), size: 1 };
    }
    this.open.add(node);
    const built = this.buildNode(node, path, depth);
    this.open.delete(node);
    this.done.set(node, built);
    return built;
  }

  private buildNode(node: Node, path: readonly (string | number)[], depth: number): { tree: Tree; size: number } {
    const pos = this.pos(node.range?.[0]);
    if (isScalar(node)) {
      const v = node.value;
      if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
        return { tree: { t: "scalar", pos, value: v }, size: 1 };
      }
      // Tags of YAML 1.1 (!!binary, !!timestamp) make bytes and dates, which no policy key takes.
      const what =
        v instanceof Uint8Array ? "binary data (!!binary)" : v instanceof Date ? "a timestamp" : `a ${typeof v}`;
      return { tree: { t: "other", pos, what, problem: "write a string, a number or a boolean" }, size: 1 };
    }
    if (isSeq(node)) {
      const items: Tree[] = [];
      let size = 1;
      node.items.forEach((item, i) => {
        const built = this.build(item as Node | null, [...path, i], depth + 1, pos);
        items.push(built.tree);
        size += built.size;
      });
      return { tree: { t: "seq", pos, items }, size };
    }
    if (isMap(node)) {
      const entries: Entry[] = [];
      let size = 1;
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const keyNode = pair.key as Node | null;
        const keyPos = keyNode === null ? pos : this.pos(keyNode.range?.[0]);
        let key: string | undefined;
        let keyWhat = "an empty key";
        const k = isAlias(keyNode) ? keyNode.resolve(this.doc) : keyNode;
        if (isScalar(k)) {
          if (typeof k.value === "string") key = k.value;
          else keyWhat = k.value === null ? "an empty key" : `the ${typeof k.value} ${String(k.value)}`;
        } else if (k !== null && k !== undefined) {
          keyWhat = isSeq(k) ? "a list" : "a map";
        }
        const valuePath = [...path, key ?? "?"];
        const built = this.build(pair.value as Node | null, valuePath, depth + 1, keyPos);
        entries.push({ key, keyWhat, keyPos, value: built.tree });
        size += built.size;
      }
      return { tree: { t: "map", pos, entries }, size };
    }
    return { tree: this.fail(node, path, "a YAML value of an unknown kind"), size: 1 };
  }
}

class AliasBomb {
  constructor(
    readonly pos: Pos,
    readonly path: readonly (string | number)[],
  ) {}
}

/** What {@link treeFromYaml} gives: the tree when the text parsed, and every problem met on the way. */
export interface YamlResult {
  readonly tree: Tree | undefined;
  readonly issues: readonly TreeIssue[];
}

/** Parses YAML (or JSON) text into a tree with positions; syntax errors, duplicate keys and bombs become issues. */
export function treeFromYaml(text: string): YamlResult {
  const lines = new LineCounter();
  const at = (offset: number): Pos => {
    const p = lines.linePos(offset);
    return { line: p.line, column: p.col };
  };
  const deep = flowDepthExceeded(text);
  if (deep >= 0) {
    // The line counter is filled by the parser; count lines here, once.
    const before = text.slice(0, deep);
    const line = before.split("\n").length;
    const column = deep - before.lastIndexOf("\n");
    return {
      tree: undefined,
      issues: [{ pos: { line, column }, path: [], message: `[ and { nested more than ${MAX_FLOW_DEPTH} levels deep` }],
    };
  }
  const parsed = parseAllDocuments(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: false,
    merge: false,
    strict: true,
    version: "1.2",
    schema: "core",
  });
  const docs = Array.isArray(parsed) ? parsed : [];
  const issues: TreeIssue[] = [];
  for (const doc of docs) {
    for (const e of [...doc.errors, ...doc.warnings]) {
      const first = e.message.split("\n")[0] ?? e.message;
      issues.push({ pos: at(e.pos[0]), path: [], message: yamlMessage(e.code, first) });
    }
  }
  const doc = docs[0];
  if (doc === undefined || doc.contents === null) {
    issues.push({ pos: { line: 1, column: 1 }, path: [], message: "the file holds no policy (it is empty)" });
    return { tree: undefined, issues };
  }
  const second = docs[1];
  if (second !== undefined) {
    const offset = second.range?.[0] ?? 0;
    issues.push({
      pos: at(offset),
      path: [],
      message: "a policy file holds one YAML document: a second one starts here",
    });
  }
  if (issues.length > 0) return { tree: undefined, issues };
  const builder = new Builder(doc, lines);
  try {
    const { tree } = builder.build(doc.contents as Node, [], 0, { line: 1, column: 1 });
    return { tree, issues: builder.issues };
  } catch (error) {
    if (!(error instanceof AliasBomb)) throw error;
    return {
      tree: undefined,
      issues: [
        {
          pos: error.pos,
          path: error.path,
          message: `aliases expand to more than ${MAX_ALIAS_EXPANSION} values (an alias bomb?)`,
        },
      ],
    };
  }
}

function yamlMessage(code: string, message: string): string {
  if (code === "TAB_AS_INDENT") return "a tab in the indentation: YAML indents with spaces only";
  if (code === "RESOURCE_EXHAUSTION") return "the file is nested too deeply to read";
  return message.replace(/ at line \d+, column \d+:?$/, "");
}
