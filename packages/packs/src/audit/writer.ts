import {
  closeSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { ToolwareError, ToolwareTypeError } from "@toolware/core";

/**
 * When `append` returns: `"fsync"`, the line is on the storage device (it survives a crash of the process, of the
 * operating system and a power loss); `"write"`, the line is in the operating system's file cache (it survives the
 * process being killed, not an OS crash or a power loss), at a fraction of the cost.
 */
export type AuditDurability = "fsync" | "write";

const NEWLINE = 0x0a;

/** The numbers of the rotated files of `file` (`<file>.1`, `<file>.2`, …), in ascending order. @internal */
export function rotatedNumbers(file: string): number[] {
  const base = basename(file);
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return [];
  }
  const numbers: number[] = [];
  for (const name of names) {
    if (!name.startsWith(`${base}.`)) continue;
    const rest = name.slice(base.length + 1);
    if (/^[1-9]\d*$/.test(rest)) numbers.push(Number(rest));
  }
  return numbers.sort((a, b) => a - b);
}

function lastByte(fd: number, size: number): number | undefined {
  if (size === 0) return undefined;
  const one = Buffer.alloc(1);
  return readSync(fd, one, 0, 1, size - 1) === 1 ? one[0] : undefined;
}

// The files the audit writers of this process hold, by real path: two writers on one file would each
// rotate it and write every call twice. Held weakly, so a writer nobody can reach frees its file.
const holders = new Map<string, WeakRef<AuditWriter>>();

function claim(file: string, writer: AuditWriter): string {
  const key = join(realpathSync(dirname(file)), basename(file));
  const holder = holders.get(key)?.deref();
  if (holder !== undefined && holder !== writer) {
    throw new ToolwareTypeError(
      "TOOLWARE_AUDIT_FILE_IN_USE",
      `toolware/audit: ${file} is written by another audit() of this process: two writers would each rotate it ` +
        "and record every call twice. Use one audit() per file (one instance serves any number of ToolHooks and " +
        "layers), or close() the other first",
    );
  }
  holders.set(key, new WeakRef(writer));
  return key;
}

/**
 * Appends whole lines to a file with synchronous system calls, so that each line is written (and, with
 * `"fsync"`, on the device) before `append` returns. A line is never split across files: the file is renamed to
 * the next free `<file>.N` when the line would take it past `maxBytes`. Renamed files are never renamed again, so
 * a crash during a rotation cannot lose or reorder lines. One writer per file.
 * @internal
 */
export class AuditWriter {
  readonly file: string;
  readonly #durability: AuditDurability;
  readonly #maxBytes: number;
  #fd: number | undefined;
  #key: string | undefined;
  #size = 0;
  #nextRotation = 1;
  // A write failed part-way: the file may end in a torn line, which must not swallow the next one.
  #suspect = false;

  constructor(file: string, durability: AuditDurability, maxBytes: number) {
    this.file = file;
    this.#durability = durability;
    this.#maxBytes = maxBytes;
    this.#open();
  }

  #open(): void {
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      this.#key = claim(this.file, this);
      this.#fd = openSync(this.file, "a+");
      this.#nextRotation = (rotatedNumbers(this.file).at(-1) ?? 0) + 1;
      this.#repair();
    } catch (error) {
      if (error instanceof ToolwareTypeError) throw error;
      this.close();
      throw new ToolwareError("TOOLWARE_AUDIT_OPEN_FAILED", `audit: cannot open ${this.file}: ${String(error)}`, {
        cause: error,
      });
    }
  }

  // A line cut short by a crash stays as it is (the reader reports it); the next line must start on its own.
  #repair(): void {
    const fd = this.#fd as number;
    this.#size = fstatSync(fd).size;
    if (this.#size > 0 && lastByte(fd, this.#size) !== NEWLINE) this.#write(Buffer.from("\n"));
    this.#suspect = false;
  }

  #write(buffer: Buffer): void {
    const fd = this.#fd as number;
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
    this.#size += buffer.length;
  }

  #rotate(): void {
    this.#closeQuietly();
    renameSync(this.file, `${this.file}.${this.#nextRotation}`);
    this.#nextRotation++;
    this.#fd = openSync(this.file, "a+");
    this.#size = 0;
    if (this.#durability === "fsync") syncDirectory(dirname(this.file));
  }

  /** Appends `line` (without its newline) durably; throws `TOOLWARE_AUDIT_WRITE_FAILED` when it could not. */
  append(line: string): void {
    const buffer = Buffer.from(`${line}\n`, "utf8");
    try {
      if (this.#fd === undefined) this.#open();
      if (this.#suspect) this.#repair();
      if (this.#size > 0 && this.#size + buffer.length > this.#maxBytes) this.#rotate();
      this.#write(buffer);
      if (this.#durability === "fsync") fsyncSync(this.#fd as number);
    } catch (error) {
      this.#suspect = true;
      if (error instanceof ToolwareError) throw error;
      throw new ToolwareError("TOOLWARE_AUDIT_WRITE_FAILED", `audit: cannot write to ${this.file}: ${String(error)}`, {
        cause: error,
      });
    }
  }

  /** Closes the file and lets another writer have it; a later `append` opens it again if it is free. */
  close(): void {
    this.#closeQuietly();
    const key = this.#key;
    if (key !== undefined && holders.get(key)?.deref() === this) holders.delete(key);
    this.#key = undefined;
  }

  #closeQuietly(): void {
    if (this.#fd === undefined) return;
    const fd = this.#fd;
    this.#fd = undefined;
    try {
      closeSync(fd);
    } catch {
      // Nothing is buffered in the process: a failing close loses nothing that `append` reported as written.
    }
  }
}

// A rename is durable once its directory is: not every platform can sync a directory, and then nothing more can be done.
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Windows cannot open a directory this way.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
