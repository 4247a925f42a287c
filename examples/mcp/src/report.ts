/** One printed call: the tool, whether MCP saw an error, and the text the caller got. */
export interface Line {
  readonly tool: string;
  readonly isError: boolean;
  readonly text: string;
}

export function line(tool: string, result: unknown): Line {
  const r = result as { isError?: boolean; content?: { type: string; text?: string }[] };
  const text = (r.content ?? []).map((p) => (p.type === "text" ? (p.text ?? "") : `[${p.type}]`)).join(" ");
  return { tool, isError: r.isError === true, text: text.trim().replaceAll("\n", " / ") };
}

export function render(title: string, lines: readonly Line[]): string {
  const width = Math.max(...lines.map((l) => l.tool.length));
  const rows = lines.map((l) => `  ${l.isError ? "✖ isError" : "✔ ok     "}  ${l.tool.padEnd(width)}  ${l.text}`);
  return [title, ...rows].join("\n");
}
