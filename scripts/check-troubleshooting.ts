/**
 * Checks that docs/troubleshooting.md explains every message the core can
 * produce: the `toolware: …` errors it throws, the messages of its error
 * classes, and the agent-facing outcome texts (blocked, withheld, failed).
 *
 * Run: `npx tsx scripts/check-troubleshooting.ts` (exit code 1 when a message is missing).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

/** One message found in the core's source. */
export interface CoreMessage {
  /** Path relative to the root, e.g. `packages/core/src/tool.ts`. */
  readonly file: string;
  readonly line: number;
  /** The literal with every `${…}` shown as `…`. */
  readonly text: string;
  /** The static text before the first `${`. */
  readonly prefix: string;
  /** Matches the message in prose where each `${…}` may be written as any placeholder (`<name>`). */
  readonly pattern: RegExp;
}

/** What {@link checkTroubleshooting} found. */
export interface TroubleshootingReport {
  readonly messages: readonly CoreMessage[];
  /** Messages the page does not mention. */
  readonly missing: readonly CoreMessage[];
}

/** Where to look; both default to this repository. */
export interface TroubleshootingOptions {
  /** Folder of the core's sources. Default `packages/core/src`. */
  srcDir?: string;
  /** The page that must explain them. Default `docs/troubleshooting.md`. */
  doc?: string;
  /** Paths in the report are relative to it. Default: the repository root. */
  root?: string;
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));

// Agent-facing texts the core writes into outcomes, besides its `toolware: …` errors.
const OUTCOME_PREFIXES = ["Tool execution ", "Tool result "];
// Variables whose template is a message shown to people (such as the reason of a failed hook).
const MESSAGE_VARIABLE = /(reason|message)$/i;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function parts(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression): string[] {
  if (!ts.isTemplateExpression(node)) return [node.text];
  return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
}

function isLiteral(node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
}

function calleeName(node: ts.NewExpression): string {
  const e = node.expression;
  return ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? e.name.text : "";
}

function insideErrorClass(node: ts.Node): boolean {
  for (let n: ts.Node | undefined = node.parent; n !== undefined; n = n.parent) {
    if (ts.isClassDeclaration(n)) return n.name?.text.endsWith("Error") === true;
  }
  return false;
}

/** Decides whether a string literal is a message: see the rules in the module comment. */
function isMessage(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression): boolean {
  const head = parts(node)[0] ?? "";
  if (head.startsWith("toolware:")) return true;
  if (OUTCOME_PREFIXES.some((p) => head.startsWith(p))) return true;
  const parent = node.parent;
  // The first argument of `new SomethingError(…)`: ToolwareError adds the `toolware: ` prefix itself.
  if (ts.isNewExpression(parent) && parent.arguments?.[0] === node && calleeName(parent).endsWith("Error")) return true;
  // `super(…)` in an error class builds the message of HookFailedError and HookTimeoutError.
  if (
    ts.isCallExpression(parent) &&
    parent.expression.kind === ts.SyntaxKind.SuperKeyword &&
    parent.arguments[0] === node &&
    insideErrorClass(parent)
  ) {
    return true;
  }
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name) && MESSAGE_VARIABLE.test(parent.name.text)) {
    return ts.isTemplateExpression(node) || node.text.includes(" ");
  }
  return false;
}

/**
 * Every message of the non-test `.ts` files of `srcDir`, deduplicated by text.
 *
 * @example
 * ```ts
 * extractCoreMessages().map((m) => m.text); // ["toolware: a tool needs a non-empty `name`", …]
 * ```
 */
export function extractCoreMessages(srcDir = join(ROOT, "packages/core/src"), root = ROOT): CoreMessage[] {
  const files = readdirSync(srcDir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !/\.test(-d)?\.ts$/.test(f))
    .sort();
  const seen = new Set<string>();
  const found: CoreMessage[] = [];
  for (const f of files) {
    const path = join(srcDir, f);
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (isLiteral(node) && isMessage(node)) {
        const pieces = parts(node);
        const text = pieces.join("…");
        if (!seen.has(text)) {
          seen.add(text);
          found.push({
            file: relative(root, path),
            line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
            text,
            prefix: pieces[0] ?? "",
            pattern: new RegExp(pieces.map(escapeRegExp).join(".*?")),
          });
        }
        return;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/**
 * Lists the core's messages that the troubleshooting page does not mention.
 * A message counts as mentioned when its static text appears in order on one
 * line, with anything (such as `<name>`) where the code interpolates a value.
 * A `|` written `\|` (as a pipe inside a Markdown table cell must be) counts as `|`.
 *
 * @example
 * ```ts
 * const { missing } = checkTroubleshooting();
 * if (missing.length > 0) process.exitCode = 1;
 * ```
 */
export function checkTroubleshooting(options: TroubleshootingOptions = {}): TroubleshootingReport {
  const root = options.root ?? ROOT;
  const messages = extractCoreMessages(options.srcDir ?? join(root, "packages/core/src"), root);
  const doc = readFileSync(options.doc ?? join(root, "docs/troubleshooting.md"), "utf8").replaceAll("\\|", "|");
  const missing = messages.filter((m) => !m.pattern.test(doc) || !doc.includes(m.prefix));
  return { messages, missing };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { messages, missing } = checkTroubleshooting();
  if (process.argv.includes("--list")) for (const m of messages) console.log(`${m.file}:${m.line}\t${m.text}`);
  for (const m of missing) console.error(`missing from docs/troubleshooting.md: ${m.text}  (${m.file}:${m.line})`);
  console.log(`${messages.length - missing.length}/${messages.length} core messages are explained`);
  if (missing.length > 0) process.exitCode = 1;
}
