/**
 * Checks the "File reference" section of docs/policy.md against the published JSON Schema of a policy file
 * (`packages/policy/schema.json`), so the reference cannot drift from what the loader accepts:
 *
 * - every object of the schema (the top level, `stores`, `rules[]`, `rules[].packs.rate-limit`, …) has a heading
 *   naming its key path in backticks (`Top level` for the file itself) followed by a table `| key | type | default |
 *   … |`;
 * - each table lists exactly the object's keys, each with the type the schema gives (`string`, `duration`,
 *   `` `allow` or `deny` ``, `list of strings`, …) and its default: `required` for a required key, else the text
 *   after "Default:" in the property's description;
 * - no table names an object the schema does not have.
 *
 * Run: `npx tsx scripts/check-policy-reference.ts` (exit code 1 on any problem; `--print` prints the tables the
 * schema asks for, to paste into the page).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

type Node = { readonly [key: string]: unknown };

/** One row the schema asks for. */
export interface ReferenceRow {
  readonly key: string;
  readonly type: string;
  readonly default: string;
  readonly description: string;
}

/** One object of the file: its key path (`rules[].match`, `` for the top level) and its keys. */
export interface ReferenceTable {
  readonly path: string;
  readonly rows: readonly ReferenceRow[];
}

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DURATION = "^\\d{1,15}(?:\\.\\d{1,6})?(?:ms|s|m|h|d)$";

/** The type of a schema node as the reference writes it. */
export function typeText(node: Node): string {
  if (Array.isArray(node.enum)) return node.enum.map((v) => `\`${String(v)}\``).join(" or ");
  if ("const" in node) return `\`${String(node.const)}\``;
  if (Array.isArray(node.anyOf)) {
    const options = node.anyOf as Node[];
    const isDuration = options.some((o) => o.type === "string" && o.pattern === DURATION) && options.length === 2;
    return isDuration ? "duration" : options.map(typeText).join(" or ");
  }
  switch (node.type) {
    case "array":
      return `list of ${typeText(node.items as Node)
        .replace(/^map$/, "maps")
        .replace(/^(string|integer|number|boolean)$/, "$1s")}`;
    case "object":
      return typeof node.additionalProperties === "object"
        ? `map of ${typeText(node.additionalProperties as Node)}s`
        : "map";
    default:
      return String(node.type);
  }
}

function defaultText(node: Node, required: boolean): string {
  if (required) return "required";
  const m = /Default: (.*)\.$/.exec(String(node.description ?? ""));
  return m === null ? "" : (m[1] as string);
}

/** Every object of the schema, in document order, with the rows its table must have. */
export function referenceTables(schema: Node): ReferenceTable[] {
  const tables: ReferenceTable[] = [];
  const walk = (node: Node, path: string): void => {
    if (Array.isArray(node.anyOf)) for (const option of node.anyOf as Node[]) walk(option, path);
    if (node.type === "array") walk(node.items as Node, `${path}[]`);
    if (node.type !== "object" || node.additionalProperties !== false) return;
    const properties = (node.properties ?? {}) as Record<string, Node>;
    const required = new Set((node.required ?? []) as string[]);
    const rows = Object.entries(properties).map(([key, p]) => ({
      key,
      type: typeText(p),
      default: defaultText(p, required.has(key)),
      description: String(p.description ?? "").replace(/ Default: .*\.$/, ""),
    }));
    tables.push({ path, rows });
    for (const [key, p] of Object.entries(properties)) walk(p, path === "" ? key : `${path}.${key}`);
  };
  walk(schema, "");
  return tables;
}

/** A table of the page: the path its heading names, and its rows (key, type, default). */
interface PageTable {
  readonly path: string;
  readonly line: number;
  readonly rows: { readonly key: string; readonly type: string; readonly default: string; readonly line: number }[];
}

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, "|"));

/** The tables of the "File reference" section of a page. */
export function pageTables(markdown: string): PageTable[] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => /^## File reference\s*$/.test(l));
  if (start < 0) return [];
  const tables: PageTable[] = [];
  let current: PageTable | undefined;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^## /.test(line)) break;
    const heading = /^#{3,5} (.*)$/.exec(line);
    if (heading !== null) {
      const text = heading[1] as string;
      const path = /^Top level/.test(text) ? "" : /`([^`]+)`/.exec(text)?.[1];
      current = path === undefined ? undefined : { path, line: i + 1, rows: [] };
      if (current !== undefined) tables.push(current);
      continue;
    }
    if (current === undefined || !line.startsWith("|")) continue;
    const [key, type, def] = cells(line);
    if (key === undefined || /^key$/i.test(key) || /^-+$/.test(key.replace(/[:\s]/g, ""))) continue;
    current.rows.push({ key: key.replace(/^`|`$/g, ""), type: type ?? "", default: def ?? "", line: i + 1 });
  }
  return tables;
}

/** What does not agree, one line each (empty when the reference is right). */
export function checkPolicyReference(
  markdown = readFileSync(`${ROOT}docs/policy.md`, "utf8"),
  schema: Node = JSON.parse(readFileSync(`${ROOT}packages/policy/schema.json`, "utf8")) as Node,
): string[] {
  const problems: string[] = [];
  const expected = referenceTables(schema);
  const page = pageTables(markdown);
  const name = (path: string) => (path === "" ? "Top level" : `\`${path}\``);
  for (const table of expected) {
    const found = page.find((t) => t.path === table.path);
    if (found === undefined) {
      problems.push(
        `docs/policy.md: no table for ${name(table.path)} (a heading naming it, then | key | type | default |)`,
      );
      continue;
    }
    for (const row of table.rows) {
      const written = found.rows.find((r) => r.key === row.key);
      if (written === undefined) {
        problems.push(`docs/policy.md:${found.line}: ${name(table.path)} does not list \`${row.key}\``);
        continue;
      }
      if (written.type !== row.type) {
        problems.push(
          `docs/policy.md:${written.line}: \`${row.key}\` is ${row.type} in the schema, the page says ${written.type}`,
        );
      }
      if (written.default !== row.default) {
        problems.push(
          `docs/policy.md:${written.line}: \`${row.key}\` defaults to ${row.default || "(none)"} in the schema, the page says ${written.default || "(none)"}`,
        );
      }
    }
    for (const row of found.rows) {
      if (!table.rows.some((r) => r.key === row.key)) {
        problems.push(`docs/policy.md:${row.line}: ${name(table.path)} has no key \`${row.key}\` in the schema`);
      }
    }
  }
  for (const table of page) {
    if (!expected.some((t) => t.path === table.path)) {
      problems.push(`docs/policy.md:${table.line}: the schema has no object ${name(table.path)}`);
    }
  }
  return problems;
}

/** The tables the schema asks for, as Markdown (descriptions from the schema). */
export function printTables(schema: Node): string {
  const esc = (s: string) => s.replace(/\|/g, "\\|");
  return referenceTables(schema)
    .map(
      (t) =>
        `### ${t.path === "" ? "Top level" : `\`${t.path}\``}\n\n| key | type | default | description |\n| --- | --- | --- | --- |\n${t.rows
          .map((r) => `| \`${r.key}\` | ${esc(r.type)} | ${esc(r.default)} | ${esc(r.description)} |`)
          .join("\n")}\n`,
    )
    .join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (process.argv.includes("--print")) {
    console.log(printTables(JSON.parse(readFileSync(`${ROOT}packages/policy/schema.json`, "utf8")) as Node));
  } else {
    const problems = checkPolicyReference();
    for (const p of problems) console.error(p);
    console.log(
      problems.length === 0
        ? "policy reference: agrees with schema.json"
        : `policy reference: ${problems.length} problems`,
    );
    process.exitCode = problems.length === 0 ? 0 : 1;
  }
}
