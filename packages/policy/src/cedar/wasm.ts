/**
 * cedar-wasm compiles 4 MB of WebAssembly when it is imported (about 65 ms here): it is imported on the first
 * `compileCedar`, so a policy file without Cedar, and every import of `@toolware/policy`, never pays for it.
 */
export type CedarWasm = typeof import("@cedar-policy/cedar-wasm/nodejs");

let loading: Promise<CedarWasm> | undefined;

export function loadCedarWasm(): Promise<CedarWasm> {
  loading ??= import("@cedar-policy/cedar-wasm/nodejs");
  return loading;
}
