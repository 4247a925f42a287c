import { open } from "node:fs/promises";

/** The largest CASES file `toolware policy test` reads: 8 MiB. */
export const MAX_CASES_BYTES = 8 * 1024 * 1024;

/**
 * Reads a UTF-8 text file of at most `limit` bytes. Returns the text, or why it cannot be used: missing, a
 * directory, too large (a device or pipe that never ends included: at most `limit + 1` bytes are read), not UTF-8.
 */
export async function readText(path: string, limit: number): Promise<{ text: string } | { problem: string }> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) return { problem: "it is a directory, not a file" };
    const tooLarge = { problem: `it is larger than ${limit} bytes` };
    if (stat.size > limit) return tooLarge;
    const buffer = new Uint8Array(limit + 1);
    let filled = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.byteLength - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled > limit) return tooLarge;
    }
    try {
      return { text: new TextDecoder("utf-8", { fatal: true }).decode(buffer.subarray(0, filled)) };
    } catch {
      return { problem: "it is not UTF-8 text" };
    }
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  } finally {
    await handle.close();
  }
}
