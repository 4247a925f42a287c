import { open } from "node:fs/promises";

/** What {@link readBounded} read: the bytes, or only the size when it is over the limit. */
export interface BoundedRead {
  readonly bytes: Uint8Array;
  /** The file's size, or `limit + 1` for a file that turned out longer than `stat` said (a pipe, /dev/zero). */
  readonly size: number;
}

/**
 * Reads a file of at most `limit` bytes. A larger one is not read: `stat` tells its size, and a file `stat` cannot
 * size (a pipe, a device) is read only up to `limit + 1` bytes.
 */
export async function readBounded(path: string, limit: number): Promise<BoundedRead> {
  const handle = await open(path, "r");
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw new Error("it is a directory");
    if (stat.size > limit) return { bytes: new Uint8Array(0), size: stat.size };
    const buffer = new Uint8Array(limit + 1);
    let filled = 0;
    while (filled < buffer.byteLength) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.byteLength - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return { bytes: buffer.subarray(0, filled), size: filled };
  } finally {
    await handle.close();
  }
}
