import { closestKey, ToolHooks, ToolwareTypeError } from "@toolware/core";
import type { GatewayOptions, ListenOptions, UpstreamConfig } from "./contract.js";
import { checkRestart } from "./restart-policy.js";

const GATEWAY_KEYS = ["upstreams", "hooks", "policy", "hideDenied", "separator", "serverInfo", "onEvent", "restart"];
const STDIO_KEYS = ["name", "prefix", "trusted", "command", "args", "env", "cwd", "restart"];
const HTTP_KEYS = ["name", "prefix", "trusted", "url", "headers"];
const LISTEN_KEYS = ["host", "port", "bearerToken", "allowedHosts", "allowedOrigins", "maxBodyBytes"];
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const invalid = (message: string) => new ToolwareTypeError("TOOLWARE_INVALID_OPTION", message);

/** Refuses a key it does not know, with the closest known one: a typo must never switch a guard off. @internal */
export function checkKeys(value: object, known: readonly string[], where: string): void {
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === "string" && known.includes(key)) continue;
    const name = String(key);
    const guess = typeof key === "string" ? closestKey(name, known) : undefined;
    throw new ToolwareTypeError(
      "TOOLWARE_UNKNOWN_OPTION",
      `${where}: unknown option \`${name}\`${guess === undefined ? "" : ` (did you mean "${guess}"?)`} (known: ${known.join(", ")})`,
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function stringRecord(value: unknown, where: string): void {
  if (value === undefined) return;
  if (!isRecord(value) || Object.values(value).some((v) => typeof v !== "string")) {
    throw invalid(`${where} must be an object of strings`);
  }
}

function checkUpstream(value: unknown, index: number): UpstreamConfig {
  const where = `createGateway(): upstreams[${index}]`;
  if (!isRecord(value)) throw invalid(`${where} must be { name, command, … } or { name, url, … }`);
  const isHttp = "url" in value;
  if (isHttp === "command" in value)
    throw invalid(`${where} needs exactly one of \`command\` (stdio) or \`url\` (HTTP)`);
  if (isHttp && "restart" in value) throw invalid(`${where}.restart applies to stdio upstreams (\`command\`) only`);
  checkKeys(value, isHttp ? HTTP_KEYS : STDIO_KEYS, where);
  checkRestart(value.restart, `${where}.restart`);
  if (typeof value.name !== "string" || !NAME.test(value.name)) {
    throw invalid(`${where}.name must be 1-64 letters, digits, "-" or "_", starting with a letter or digit`);
  }
  if (
    value.prefix !== undefined &&
    value.prefix !== false &&
    (typeof value.prefix !== "string" || !NAME.test(value.prefix))
  ) {
    throw invalid(`${where}.prefix must be false or 1-64 letters, digits, "-" or "_"`);
  }
  if (value.trusted !== undefined && typeof value.trusted !== "boolean")
    throw invalid(`${where}.trusted must be true or false`);
  if (isHttp) {
    let url: URL;
    try {
      url = new URL(String(value.url));
    } catch {
      throw invalid(`${where}.url is not a URL`);
    }
    if (typeof value.url !== "string" || (url.protocol !== "http:" && url.protocol !== "https:")) {
      throw invalid(`${where}.url must be an http:// or https:// URL`);
    }
    stringRecord(value.headers, `${where}.headers`);
  } else {
    if (typeof value.command !== "string" || value.command === "")
      throw invalid(`${where}.command must be a non-empty string`);
    if (value.args !== undefined && (!Array.isArray(value.args) || value.args.some((a) => typeof a !== "string"))) {
      throw invalid(`${where}.args must be an array of strings`);
    }
    stringRecord(value.env, `${where}.env`);
    if (value.cwd !== undefined && typeof value.cwd !== "string") throw invalid(`${where}.cwd must be a string`);
  }
  return value as unknown as UpstreamConfig;
}

/** Checks `createGateway` options strictly and once. @internal */
export function checkGatewayOptions(options: unknown): GatewayOptions {
  if (!isRecord(options)) throw invalid("createGateway() options must be an object { upstreams, hooks, … }");
  checkKeys(options, GATEWAY_KEYS, "createGateway()");
  if (!(options.hooks instanceof ToolHooks)) {
    throw invalid("createGateway(): `hooks` must be a ToolHooks (every tools/call runs through it)");
  }
  if (!Array.isArray(options.upstreams) || options.upstreams.length === 0) {
    throw invalid("createGateway(): `upstreams` must be a non-empty array");
  }
  const upstreams = options.upstreams.map(checkUpstream);
  const names = new Set<string>();
  for (const u of upstreams) {
    if (names.has(u.name)) throw invalid(`createGateway(): two upstreams are named "${u.name}"`);
    names.add(u.name);
  }
  const { policy, hideDenied, separator, serverInfo, onEvent } = options;
  if (policy !== undefined && (!isRecord(policy) || typeof policy.explain !== "function")) {
    throw invalid("createGateway(): `policy` must be the policy pack registered on `hooks` (it has `explain`)");
  }
  if (hideDenied !== undefined && typeof hideDenied !== "boolean")
    throw invalid("createGateway(): `hideDenied` must be true or false");
  if (separator !== undefined && (typeof separator !== "string" || !/^[A-Za-z0-9_.-]{1,4}$/.test(separator))) {
    throw invalid("createGateway(): `separator` must be 1-4 of letters, digits, `_`, `.` or `-`");
  }
  if (serverInfo !== undefined) {
    if (!isRecord(serverInfo) || typeof serverInfo.name !== "string" || typeof serverInfo.version !== "string") {
      throw invalid("createGateway(): `serverInfo` must be { name, version }");
    }
    checkKeys(serverInfo, ["name", "version"], "createGateway(): serverInfo");
  }
  checkRestart(options.restart, "createGateway(): restart");
  if (onEvent !== undefined && typeof onEvent !== "function")
    throw invalid("createGateway(): `onEvent` must be a function");
  return { ...(options as unknown as GatewayOptions), upstreams };
}

/** Checks `listen` options strictly. @internal */
export function checkListenOptions(options: unknown): ListenOptions {
  if (options === undefined) return {};
  if (!isRecord(options)) throw invalid("listen() options must be an object");
  checkKeys(options, LISTEN_KEYS, "listen()");
  const { host, port, bearerToken, allowedHosts, allowedOrigins, maxBodyBytes } = options;
  if (host !== undefined && (typeof host !== "string" || host === ""))
    throw invalid("listen(): `host` must be a string");
  if (port !== undefined && (!Number.isInteger(port) || (port as number) < 0 || (port as number) > 65535)) {
    throw invalid("listen(): `port` must be a whole number from 0 to 65535");
  }
  if (bearerToken !== undefined && (typeof bearerToken !== "string" || bearerToken.length < 16)) {
    throw invalid("listen(): `bearerToken` must be a string of at least 16 characters");
  }
  for (const [key, list] of [
    ["allowedHosts", allowedHosts],
    ["allowedOrigins", allowedOrigins],
  ] as const) {
    if (list !== undefined && (!Array.isArray(list) || list.some((h) => typeof h !== "string"))) {
      throw invalid(`listen(): \`${key}\` must be an array of strings`);
    }
  }
  if (maxBodyBytes !== undefined && (!Number.isInteger(maxBodyBytes) || (maxBodyBytes as number) < 1024)) {
    throw invalid("listen(): `maxBodyBytes` must be a whole number of at least 1024");
  }
  return options as ListenOptions;
}
