import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { closestKey, messageOf, ToolwareError } from "@toolware/core";
import type { RestartOptions, UpstreamConfig } from "@toolware/gateway";
import { usageError } from "../kit.js";
import { checkStoreConfig, STORE_KEYS } from "./store.js";

/** What `--config FILE` may hold (JSON): more upstreams, and how tools are listed. */
export interface GatewayFileConfig {
  readonly upstreams?: readonly UpstreamConfig[];
  /** The name of the upstream given after `--`. Default "server". */
  readonly name?: string;
  readonly hideDenied?: boolean;
  readonly separator?: string;
  /** The environment variable holding the bearer token clients of `--listen` must send. */
  readonly bearerTokenEnv?: string;
  /** The environment variable holding the inbox's signing keys (with `--inbox`). Default `TOOLWARE_INBOX_KEYS`. */
  readonly inboxKeysEnv?: string;
  /** A Redis URL the instances share (`--store` wins); `storePrefix`, `storePasswordEnv`: see store.ts. */
  readonly store?: string;
  readonly storePrefix?: string;
  readonly storePasswordEnv?: string;
  readonly storeTimeoutMs?: number;
  /** How crashed stdio upstreams are restarted (checked by the gateway). */
  readonly restart?: RestartOptions;
}

const KEYS = [
  "upstreams",
  "name",
  "hideDenied",
  "separator",
  "bearerTokenEnv",
  "inboxKeysEnv",
  "restart",
  ...STORE_KEYS,
];

/** Reads `--config`: JSON, unknown keys refused with a hint (the upstreams themselves are checked by the gateway). */
export function readConfig(cwd: string, file: string | undefined): GatewayFileConfig {
  if (file === undefined) return {};
  const path = resolve(cwd, file);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ToolwareError("TOOLWARE_GATEWAY_CONFIG", `gateway: cannot read ${file}: ${messageOf(error)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ToolwareError("TOOLWARE_GATEWAY_CONFIG", `gateway: ${file} must hold a JSON object`);
  }
  for (const key of Object.keys(value)) {
    if (!KEYS.includes(key)) {
      const guess = closestKey(key, KEYS);
      throw new ToolwareError(
        "TOOLWARE_GATEWAY_CONFIG",
        `gateway: ${file}: unknown key "${key}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`} (known: ${KEYS.join(", ")})`,
      );
    }
  }
  const config = value as GatewayFileConfig;
  if (config.upstreams !== undefined && !Array.isArray(config.upstreams)) {
    throw new ToolwareError("TOOLWARE_GATEWAY_CONFIG", `gateway: ${file}: "upstreams" must be an array`);
  }
  const env = config.bearerTokenEnv;
  if (env !== undefined && (typeof env !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(env))) {
    throw new ToolwareError("TOOLWARE_GATEWAY_CONFIG", `gateway: ${file}: "bearerTokenEnv" must name a variable`);
  }
  checkStoreConfig(file, config as Readonly<Record<string, unknown>>);
  return config;
}

/** `--listen HOST:PORT` (or `:PORT`, or `[::1]:PORT`). */
export function listenAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(value);
  const port = match === null ? Number.NaN : Number(match[3]);
  if (match === null || port > 65535) throw usageError(`--listen takes HOST:PORT, got ${JSON.stringify(value)}`);
  const host = match[1] ?? (match[2] === "" ? "127.0.0.1" : (match[2] as string));
  return { host, port };
}
