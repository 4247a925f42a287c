import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { ScriptError } from "./workspace.js";

/** A package tarball as npm will unpack it: its files (paths without the leading `package/`) and its manifest. */
export interface Tarball {
  readonly files: ReadonlyMap<string, Buffer>;
  readonly manifest: PackageManifest;
}

/** The parts of a package.json the checks read. */
export interface PackageManifest {
  readonly name?: string;
  readonly version?: string;
  readonly private?: boolean;
  readonly main?: string;
  readonly types?: string;
  readonly bin?: string | Readonly<Record<string, string>>;
  readonly exports?: unknown;
  readonly engines?: Readonly<Record<string, string>>;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString("utf8");
}

/** The `path` record of a pax extended header (node-tar's, pnpm's), which carries names longer than 100 bytes. */
function paxPath(data: Buffer): string | undefined {
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = Number.parseInt(data.subarray(offset, space).toString("utf8"), 10);
    if (!(length > 0)) break;
    const record = data.subarray(space + 1, offset + length - 1).toString("utf8");
    if (record.startsWith("path=")) return record.slice(5);
    offset += length;
  }
  return undefined;
}

/**
 * Reads a gzipped tar (what `pnpm pack` and `npm pack` write) into memory, with no tar program.
 *
 * @example
 * ```ts
 * const { manifest, files } = readTarball(".packs/toolware-core.tgz");
 * ```
 */
export function readTarball(path: string): Tarball {
  const tar = gunzipSync(readFileSync(path));
  const files = new Map<string, Buffer>();
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || "0", 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix === "" ? field(header, 0, 100) : `${prefix}/${field(header, 0, 100)}`);
    const data = tar.subarray(offset + 512, offset + 512 + size);
    longName = undefined;
    if (type === "x") longName = paxPath(data);
    else if (type === "L")
      longName = field(data, 0, data.length); // GNU tar's long name
    else if (type === "0" || type === "\0") files.set(name.replace(/^package\//, ""), Buffer.from(data));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  const manifestFile = files.get("package.json");
  if (manifestFile === undefined)
    throw new ScriptError("TOOLWARE_TARBALL_NO_MANIFEST", `${path} holds no package.json`);
  return { files, manifest: JSON.parse(manifestFile.toString("utf8")) as PackageManifest };
}
