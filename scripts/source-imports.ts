import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

/** One import of a Node built-in that runs when a module loads. */
export interface NodeImport {
  /** The importing file, relative to the root given to {@link nodeImportsAtLoad}. */
  readonly file: string;
  readonly specifier: string;
}

const BUILTINS = new Set(builtinModules);

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || BUILTINS.has(specifier) || BUILTINS.has(specifier.split("/")[0] ?? "");
}

/** Whether an import or export declaration brings in values (so the module loads at run time). */
function loadsAtRunTime(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) {
    const clause = node.importClause;
    if (clause === undefined) return true; // import "x": a side effect
    if (clause.isTypeOnly) return false;
    if (clause.name !== undefined) return true;
    const bindings = clause.namedBindings;
    if (bindings === undefined || ts.isNamespaceImport(bindings)) return true;
    return bindings.elements.length === 0 || bindings.elements.some((e) => !e.isTypeOnly);
  }
  if (node.isTypeOnly) return false;
  const clause = node.exportClause;
  if (clause === undefined || ts.isNamespaceExport(clause)) return true;
  return clause.elements.length === 0 || clause.elements.some((e) => !e.isTypeOnly);
}

/** The specifiers a file imports at load: static value imports and re-exports, not `import type`, not `import()`. */
export function loadTimeSpecifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      loadsAtRunTime(statement)
    ) {
      out.push(statement.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(statement) && !statement.isTypeOnly) {
      const ref = statement.moduleReference;
      if (ts.isExternalModuleReference(ref) && ts.isStringLiteral(ref.expression)) out.push(ref.expression.text);
    }
  }
  return out;
}

/**
 * The Node built-ins (`node:fs`, `path`, …) that loading `entry` imports, following its relative imports
 * through the source tree (`./x.js` is read as `./x.ts`). Lazy `import()` is not followed: it does not run
 * at load. Other packages are not entered; a bundle for the browser checks those.
 *
 * @example
 * ```ts
 * nodeImportsAtLoad("packages/core/src/index.ts"); // [] for a runtime-neutral core
 * ```
 */
export function nodeImportsAtLoad(entry: string, root = process.cwd()): NodeImport[] {
  const seen = new Set<string>();
  const found: NodeImport[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of loadTimeSpecifiers(file)) {
      if (isBuiltin(specifier)) {
        found.push({ file: relative(root, file), specifier });
      } else if (specifier.startsWith(".")) {
        const target = join(dirname(file), specifier);
        const candidates = [target.replace(/\.js$/, ".ts"), target, `${target}.ts`, join(target, "index.ts")];
        const next = candidates.find((c) => existsSync(c) && c.endsWith(".ts"));
        if (next !== undefined) visit(next);
      }
    }
  };
  visit(entry);
  return found;
}
