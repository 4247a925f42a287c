/** The most a hook reads from stdin: Claude Code's input is a few kilobytes, plus a file's content for `Write`. */
export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** Reads all of `stream` as UTF-8, refusing more than {@link MAX_INPUT_BYTES}. */
export async function readAll(stream: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > MAX_INPUT_BYTES) throw new Error(`the hook input is larger than ${MAX_INPUT_BYTES} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}
