import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { closestKey, ToolwareError } from "@toolware/core";
import { isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { usageError } from "../kit.js";
import type { InboxSettings, WebhookSettings } from "./settings.js";

/** The keys a config file of `toolware inbox` takes, each as in docs/inbox.md. */
export const CONFIG_KEYS = [
  "host",
  "port",
  "baseUrl",
  "store",
  "redisPrefix",
  "keys",
  "audit",
  "webhooks",
  "bodyLimit",
  "sessionTtlMs",
  "secureCookie",
] as const;
const WEBHOOK_KEYS = ["url", "secretEnv", "preset", "timeoutMs"] as const;
const MAX_CONFIG_BYTES = 1024 * 1024;

/** The part of the settings a config file gives: every key optional, paths already resolved against its folder. */
export type ConfigSettings = Partial<Omit<InboxSettings, "webhooks">> & { webhooks?: readonly WebhookSettings[] };

type Path = readonly (string | number)[];

// A key as messages show it: a hostile key stays one short line.
const showKey = (key: string): string => (/^[\w$-]{1,64}$/.test(key) ? `"${key}"` : JSON.stringify(key.slice(0, 64)));

const pathText = (path: Path): string =>
  path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");

// Reads one config file; every problem names FILE:LINE:COLUMN and the key path, so a typo is found at once.
class ConfigReader {
  private readonly lines = new LineCounter();
  private readonly root: Node | null;

  constructor(
    private readonly shown: string,
    text: string,
  ) {
    const doc = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: true });
    const first = doc.errors[0];
    if (first !== undefined) {
      const at = this.lines.linePos(first.pos[0]);
      throw usageError(`${shown}:${at.line}:${at.col}: not valid YAML or JSON: ${first.message.split("\n")[0]}`);
    }
    this.root = (doc.contents as Node | null) ?? null;
  }

  fail(node: Node | null | undefined, path: Path, message: string): never {
    const offset = node?.range?.[0];
    const at = offset === undefined ? "" : `:${this.lines.linePos(offset).line}:${this.lines.linePos(offset).col}`;
    throw usageError(`${this.shown}${at}: ${path.length === 0 ? "" : `${pathText(path)}: `}${message}`);
  }

  /** The map at the top, or an empty one for an empty file. */
  top(): Map<string, { key: Node; value: Node | null }> {
    if (this.root === null) return new Map();
    return this.entries(this.root, [], CONFIG_KEYS);
  }

  entries(node: Node, path: Path, allowed: readonly string[]): Map<string, { key: Node; value: Node | null }> {
    if (!isMap(node)) this.fail(node, path, "must be a mapping of keys (key: value)");
    const found = new Map<string, { key: Node; value: Node | null }>();
    for (const pair of node.items) {
      const key = pair.key as Node;
      const name = isScalar(key) ? String(key.value) : "";
      if (!allowed.includes(name)) {
        const close = closestKey(name, allowed);
        const hint = close === undefined ? `known keys: ${allowed.join(", ")}` : `did you mean "${close}"?`;
        this.fail(key, [...path, name], `unknown key ${showKey(name)} (${hint})`);
      }
      found.set(name, { key, value: (pair.value as Node | null) ?? null });
    }
    return found;
  }

  scalar(node: Node | null, path: Path): unknown {
    if (node === null || !isScalar(node)) this.fail(node, path, "must be a single value, not a list or a mapping");
    return node.value;
  }

  text(node: Node | null, path: Path, pattern?: RegExp, what = "a non-empty string"): string {
    const value = this.scalar(node, path);
    if (typeof value !== "string" || value === "" || (pattern !== undefined && !pattern.test(value))) {
      this.fail(node, path, `must be ${what}, got ${JSON.stringify(value)}`);
    }
    return value;
  }

  integer(node: Node | null, path: Path, min: number, max = Number.MAX_SAFE_INTEGER): number {
    const value = this.scalar(node, path);
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
      this.fail(node, path, `must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
    }
    return value;
  }

  seq(node: Node | null, path: Path): Node[] {
    if (node === null || !isSeq(node)) this.fail(node, path, "must be a list");
    return node.items as Node[];
  }
}

/** `sqlite:PATH` or `redis://…` (`rediss://…`), as `--store` and the `store` key take them. */
export function parseStore(spec: string, base: string): InboxSettings["store"] | undefined {
  if (spec.startsWith("sqlite:") && spec.length > "sqlite:".length) {
    const file = spec.slice("sqlite:".length);
    return { kind: "sqlite", file: file === ":memory:" ? file : resolve(base, file) };
  }
  if (/^rediss?:\/\/[^\s]+$/.test(spec)) return { kind: "redis", url: spec };
  return undefined;
}

export const STORE_FORMAT = "sqlite:PATH or redis://HOST:PORT[/DB]";
export const BASE_URL = /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const HOST = /^[^\s/]{1,253}$/;
const PRESETS = ["json", "slack"];

function webhook(r: ConfigReader, node: Node, path: Path): WebhookSettings {
  const items = r.entries(node, path, WEBHOOK_KEYS);
  const get = (k: string) => items.get(k)?.value ?? null;
  if (!items.has("url")) r.fail(node, path, 'needs "url": where to POST');
  const url = r.text(get("url"), [...path, "url"], /^https?:\/\/[^\s]+$/, "an http(s) URL");
  const secretEnv = items.has("secretEnv")
    ? r.text(get("secretEnv"), [...path, "secretEnv"], ENV_NAME, "the name of an environment variable")
    : undefined;
  let preset: "json" | "slack" | undefined;
  if (items.has("preset")) {
    const value = r.scalar(get("preset"), [...path, "preset"]);
    if (value !== "json" && value !== "slack") {
      const close = typeof value === "string" ? closestKey(value, PRESETS) : undefined;
      const hint = close === undefined ? "" : ` (did you mean "${close}"?)`;
      r.fail(get("preset"), [...path, "preset"], `must be "json" or "slack", got ${JSON.stringify(value)}${hint}`);
    }
    preset = value;
  }
  const timeoutMs = items.has("timeoutMs") ? r.integer(get("timeoutMs"), [...path, "timeoutMs"], 1, 60_000) : undefined;
  return { url, secretEnv, preset: preset ?? "json", timeoutMs };
}

/**
 * Reads a config file of `toolware inbox` (YAML, or JSON, which YAML reads too). Refused as a usage error naming
 * FILE:LINE:COLUMN and the key path: bad syntax, an unknown key (with a "did you mean" hint), a wrong value. Paths in
 * the file are read from the file's folder. A file that cannot be read is `TOOLWARE_INBOX_START_FAILED`.
 */
export function readConfig(file: string, shown: string): ConfigSettings {
  let text: string;
  try {
    const bytes = readFileSync(file);
    if (bytes.byteLength > MAX_CONFIG_BYTES) throw new Error(`it is larger than ${MAX_CONFIG_BYTES} bytes`);
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new ToolwareError(
      "TOOLWARE_INBOX_START_FAILED",
      `inbox: cannot read the config file ${shown}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const r: ConfigReader = new ConfigReader(shown, text);
  const base = dirname(file);
  const out: { -readonly [K in keyof ConfigSettings]: ConfigSettings[K] } = {};
  for (const [key, { value }] of r.top()) {
    const path = [key];
    if (key === "host") out.host = r.text(value, path, HOST, "a host name or address");
    else if (key === "port") out.port = r.integer(value, path, 0, 65_535);
    else if (key === "baseUrl") out.baseUrl = r.text(value, path, BASE_URL, "an http(s) URL without query or fragment");
    else if (key === "store") {
      const spec = r.text(value, path, undefined, STORE_FORMAT);
      out.store = parseStore(spec, base) ?? r.fail(value, path, `must be ${STORE_FORMAT}, got ${JSON.stringify(spec)}`);
    } else if (key === "redisPrefix")
      out.redisPrefix = r.text(value, path, /^[^{}\s]{1,100}$/, "a prefix without braces");
    else if (key === "keys") out.keysFile = resolve(base, r.text(value, path, undefined, "the path of a key file"));
    else if (key === "audit") out.audit = resolve(base, r.text(value, path, undefined, "the path of the audit file"));
    else if (key === "webhooks") out.webhooks = r.seq(value, path).map((item, i) => webhook(r, item, [key, i]));
    else if (key === "bodyLimit") out.bodyLimit = r.integer(value, path, 256, 64 * 1024 * 1024);
    else if (key === "sessionTtlMs") out.sessionTtlMs = r.integer(value, path, 1000, 30 * 24 * 3_600_000);
    else {
      const flag = r.scalar(value, path);
      if (typeof flag !== "boolean") r.fail(value, path, `must be true or false, got ${JSON.stringify(flag)}`);
      out.secureCookie = flag;
    }
  }
  return out;
}
