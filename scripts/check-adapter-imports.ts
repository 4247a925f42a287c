/**
 * Checks that every adapter package (each packages/* folder but core and packs) uses the other toolware packages
 * through their public API only: no relative import that leaves the package (`../../core/src/…`), no subpath a
 * package does not export (`@toolware/core/src/…`), and from `@toolware/core` only names its index exports. The
 * export list is read from packages/core/src/index.ts when the check runs, so it follows the index as it changes.
 * Run: `npx tsx scripts/check-adapter-imports.ts` (exit code 1 on any problem).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { ROOT } from "./workspace.js";

const CORE = "@toolware/core";
const NOT_ADAPTERS = new Set(["core", "packs"]);

/** The result of {@link checkAdapterImports}. */
export interface AdapterImportsReport {
  readonly problems: string[];
  /** The adapter packages checked (folder names). */
  readonly adapters: string[];
  /** How many names the core's index exports. */
  readonly coreExports: number;
}

/** The adapter packages: every packages/* folder with a package.json but core and packs. */
export function adapterFolders(root = ROOT): string[] {
  const base = join(root, "packages");
  return readdirSync(base)
    .filter((name) => !NOT_ADAPTERS.has(name) && existsSync(join(base, name, "package.json")))
    .sort();
}

/** The names a module's index exports (values and types, through `export *` too), read with the compiler. */
export function exportedNames(index: string): Set<string> {
  const program = ts.createProgram([index], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
  });
  const source = program.getSourceFile(index);
  const symbol = source === undefined ? undefined : program.getTypeChecker().getSymbolAtLocation(source);
  if (symbol === undefined) return new Set();
  return new Set(
    program
      .getTypeChecker()
      .getExportsOfModule(symbol)
      .map((s) => s.name),
  );
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === "node_modules" ? [] : sourceFiles(path);
    return /\.(c|m)?tsx?$/.test(entry) && !entry.endsWith(".d.ts") ? [path] : [];
  });
}

/** `@toolware/packs/cache` → `["@toolware/packs", "./cache"]`; undefined for a package outside the scope. */
function toolwareSubpath(specifier: string): [string, string] | undefined {
  const match = /^(@toolware\/[^/]+)(\/.*)?$/.exec(specifier);
  return match === null ? undefined : [match[1] as string, match[2] === undefined ? "." : `.${match[2]}`];
}

/** The exported subpaths of each workspace package, by name. */
function workspaceExports(root: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const base = join(root, "packages");
  for (const name of readdirSync(base)) {
    const file = join(base, name, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as { name?: string; exports?: Record<string, unknown> };
    if (manifest.name !== undefined) out.set(manifest.name, new Set(Object.keys(manifest.exports ?? { ".": "" })));
  }
  return out;
}

interface ModuleUse {
  readonly specifier: string;
  readonly node: ts.Node;
  /** Names taken from the module: `import { a }`, `export { a } from`, `ns.a` of `import * as ns`. */
  readonly names: { readonly name: string; readonly node: ts.Node }[];
  /** A default import: the core has none, so it is a mistake. */
  readonly defaultImport: boolean;
}

// Every way a file can name a module: import/export declarations, import(), require via import =, import types,
// and `declare module "…"` augmentations (whose interfaces must extend names the module exports).
function moduleUses(file: string): ModuleUse[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const uses: ModuleUse[] = [];
  const namespaces = new Map<string, ModuleUse>();
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const use: ModuleUse = {
        specifier: node.moduleSpecifier.text,
        node: node.moduleSpecifier,
        names: [],
        defaultImport: node.importClause?.name !== undefined,
      };
      const bindings = node.importClause?.namedBindings;
      if (bindings !== undefined && ts.isNamedImports(bindings)) {
        for (const e of bindings.elements) use.names.push({ name: (e.propertyName ?? e.name).text, node: e });
      } else if (bindings !== undefined) namespaces.set(bindings.name.text, use);
      uses.push(use);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const use: ModuleUse = {
        specifier: node.moduleSpecifier.text,
        node: node.moduleSpecifier,
        names: [],
        defaultImport: false,
      };
      if (node.exportClause !== undefined && ts.isNamedExports(node.exportClause)) {
        for (const e of node.exportClause.elements) use.names.push({ name: (e.propertyName ?? e.name).text, node: e });
      }
      uses.push(use);
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      const use: ModuleUse = { specifier: node.name.text, node: node.name, names: [], defaultImport: false };
      if (node.body !== undefined && ts.isModuleBlock(node.body)) {
        for (const s of node.body.statements) {
          if ((ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && s.name !== undefined) {
            use.names.push({ name: s.name.text, node: s.name });
          }
        }
      }
      uses.push(use);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      uses.push({ specifier: node.arguments[0].text, node: node.arguments[0], names: [], defaultImport: false });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expr = node.moduleReference.expression;
      if (ts.isStringLiteral(expr)) uses.push({ specifier: expr.text, node: expr, names: [], defaultImport: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      const use: ModuleUse = { specifier: node.argument.literal.text, node, names: [], defaultImport: false };
      if (node.qualifier !== undefined) {
        const first = ts.isIdentifier(node.qualifier) ? node.qualifier : node.qualifier.left;
        if (ts.isIdentifier(first)) use.names.push({ name: first.text, node: first });
      }
      uses.push(use);
    } else if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      namespaces.get(node.expression.text)?.names.push({ name: node.name.text, node: node.name });
    } else if (ts.isQualifiedName(node) && ts.isIdentifier(node.left)) {
      namespaces.get(node.left.text)?.names.push({ name: node.right.text, node: node.right });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

function where(root: string, file: string, node: ts.Node): string {
  const { line } = node.getSourceFile().getLineAndCharacterOfPosition(node.getStart());
  return `${relative(root, file).split(sep).join("/")}:${line + 1}`;
}

/**
 * Checks the imports of every adapter package against the public API of the packages they use.
 *
 * @example
 * ```ts
 * checkAdapterImports().problems; // [] when every adapter uses @toolware/core through its index only
 * ```
 */
export function checkAdapterImports(root = ROOT): AdapterImportsReport {
  const coreNames = exportedNames(join(root, "packages/core/src/index.ts"));
  const exportsOf = workspaceExports(root);
  const adapters = adapterFolders(root);
  const problems: string[] = [];
  for (const adapter of adapters) {
    const dir = join(root, "packages", adapter);
    for (const file of sourceFiles(join(dir, "src"))) {
      for (const use of moduleUses(file)) {
        const at = where(root, file, use.node);
        const { specifier } = use;
        if (specifier.startsWith(".")) {
          const target = resolve(dirname(file), specifier);
          if (relative(dir, target).startsWith("..")) {
            problems.push(`${at}: "${specifier}" leaves packages/${adapter}: import the package by its name`);
          }
          continue;
        }
        const sub = toolwareSubpath(specifier);
        if (sub === undefined) continue;
        const [name, subpath] = sub;
        const exported = exportsOf.get(name);
        if (exported !== undefined && !exported.has(subpath)) {
          problems.push(
            `${at}: "${specifier}" is not an entry point of ${name} (it exports ${[...exported].join(", ")})`,
          );
          continue;
        }
        if (specifier !== CORE) continue;
        if (use.defaultImport) problems.push(`${at}: ${CORE} has no default export`);
        for (const { name: imported, node } of use.names) {
          if (!coreNames.has(imported)) {
            problems.push(`${where(root, file, node)}: ${CORE} does not export \`${imported}\` (not in its index.ts)`);
          }
        }
      }
    }
  }
  // By file, then line: a namespace's `ns.name` is found after the import that declared it.
  const key = (p: string) => /^(.*?):(\d+):/.exec(p) ?? ["", p, "0"];
  problems.sort((a, b) => {
    const [, fa = "", la = "0"] = key(a);
    const [, fb = "", lb = "0"] = key(b);
    return fa === fb ? Number(la) - Number(lb) : fa < fb ? -1 : 1;
  });
  return { problems, adapters, coreExports: coreNames.size };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const report = checkAdapterImports();
  for (const problem of report.problems) console.error(`✗ ${problem}`);
  console.log(
    `check-adapter-imports: ${report.adapters.length} adapters (${report.adapters.join(", ")}), ` +
      `${report.coreExports} names exported by ${CORE}, ${report.problems.length} problem(s)`,
  );
  process.exitCode = report.problems.length > 0 ? 1 : 0;
}
